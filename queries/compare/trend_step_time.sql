-- title: Step time trend over runs
-- description: Every run of the warehouse in start order (issue 17; a run whose start is unknown
--     first, by id), with its mean step and the profiler's components (the step_answer view), per
--     rank and over the run's ranks (scope overall: the mean of the ranks' means, as
--     compare_step_time counts it). Runs without steps are left out. position numbers the runs
--     in that order (1: the oldest).
-- param rank_id (integer, default null): Only this rank (and the overall rows); every rank when null.
-- column run_id: Run.
-- column name: Run name.
-- column start_ns: Start of the run, in ns (null when unknown).
-- column position: The run's place in the history (1: started first).
-- column scope: overall (mean over the run's ranks) or rank.
-- column rank_id: Rank; null for scope overall.
-- column steps: Steps averaged.
-- column duration_ns: Mean step duration (preparing + stage + bubble), in ns.
-- column computing_ns: Mean computing per step, in ns.
-- column communication_not_overlapped_ns: Mean communication not overlapped per step, in ns.
-- column overlapped_ns: Mean overlapped communication per step, in ns.
-- column communication_ns: Mean communication per step, in ns.
-- column free_ns: Mean free time per step, in ns.
-- column preparing_ns: Mean preparing per step, in ns.
-- column stage_ns: Mean stage per step, in ns.
-- column bubble_ns: Mean bubble per step, in ns.
with history as (
    select run_id, name, start_ns, position
    from run_history
),

rank_means as (
    select
        run_id, rank_id, count(*) as steps, avg(duration_ns) as duration_ns, avg(computing_ns) as computing_ns,
        avg(communication_not_overlapped_ns) as communication_not_overlapped_ns, avg(overlapped_ns) as overlapped_ns,
        avg(communication_ns) as communication_ns, avg(free_ns) as free_ns, avg(preparing_ns) as preparing_ns,
        avg(stage_ns) as stage_ns, avg(bubble_ns) as bubble_ns
    from step_answer
    group by run_id, rank_id
),

scoped as (
    select
        run_id, 'rank' as scope, rank_id, steps, duration_ns, computing_ns, communication_not_overlapped_ns,
        overlapped_ns, communication_ns, free_ns, preparing_ns, stage_ns, bubble_ns
    from rank_means
    where :rank_id is null or rank_id = :rank_id
    union all
    select
        run_id, 'overall' as scope, null as rank_id, sum(steps) as steps, avg(duration_ns) as duration_ns,
        avg(computing_ns) as computing_ns, avg(communication_not_overlapped_ns) as communication_not_overlapped_ns,
        avg(overlapped_ns) as overlapped_ns, avg(communication_ns) as communication_ns, avg(free_ns) as free_ns,
        avg(preparing_ns) as preparing_ns, avg(stage_ns) as stage_ns, avg(bubble_ns) as bubble_ns
    from rank_means
    group by run_id
),

final as (
    select
        s.run_id, h.name, h.start_ns, h.position, s.scope, s.rank_id, s.steps, s.duration_ns, s.computing_ns,
        s.communication_not_overlapped_ns, s.overlapped_ns, s.communication_ns, s.free_ns, s.preparing_ns,
        s.stage_ns, s.bubble_ns
    from scoped as s
    join history as h on h.run_id = s.run_id
)

select
    run_id, name, start_ns, position, scope, rank_id, steps, duration_ns, computing_ns,
    communication_not_overlapped_ns, overlapped_ns, communication_ns, free_ns, preparing_ns, stage_ns, bubble_ns
from final
order by position, case when scope = 'overall' then 0 else 1 end, rank_id
