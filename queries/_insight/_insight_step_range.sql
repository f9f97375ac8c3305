-- Helper (included by insight_fwd_bwd_blocks and insight_p2p_ops, not a query itself): the time range of
-- one step of a rank, as MindStudio Insight's pipeline chart reads it (QueryFwdBwdTimelineHandler.cpp
-- QueryFwdBwdTimelineFromFlow, the trace database's QueryStepDuration), a CTE named step_range
-- (range_start, range_end): the first start and last end of the rank's step :step_id in the run's inputs;
-- both null (the whole time line) when :step_id is null or the rank has no such step (the real server goes
-- on with its whole range when the step is not found). Parameters :run_id and :rank_id name the rank.
step_range as (
    select
        min(s.start_ns) as range_start,
        max(s.end_ns) as range_end
    from step as s
    join source as src on src.id = s.source_id
    where src.run_id = :run_id and s.rank_id = :rank_id and s.step_id = :step_id
)
