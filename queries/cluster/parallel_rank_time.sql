-- title: Step time per rank, in us (Summary's parallel view)
-- description: Per run and rank, the step time split (step_answer: the profiler's own summary where it
--     wrote one, else derived from the kernels and HCCL operators) summed over every step, or of one
--     step, in us rounded to 3 decimals: the figures MindStudio Insight's parallel strategy view
--     (parallelism/performance/data) shows per rank and folds per parallel group, as the real server
--     sums its cluster's step table.
-- param run_id (integer, default null): Only this run; every run when null.
-- param step_id (integer, default null): Only this step; every step summed when null.
-- column run_id: Run.
-- column rank_id: Rank.
-- column steps: Number of steps summed.
-- column computing_us: Computing, in us.
-- column communication_us: All communication, in us.
-- column communication_not_overlapped_us: Communication not overlapped by computing, in us.
-- column overlapped_us: Communication overlapped by computing, in us.
-- column free_us: Free (idle between device activities), in us.
-- column preparing_us: Preparing (host step start to the first device activity), in us.
-- column stage_us: Stage, in us.
-- column bubble_us: Bubble (receive operators), in us.
select
    run_id, rank_id, count(*) as steps,
    round(coalesce(sum(computing_ns), 0) / 1000.0, 3) as computing_us,
    round(coalesce(sum(communication_ns), 0) / 1000.0, 3) as communication_us,
    round(coalesce(sum(communication_not_overlapped_ns), 0) / 1000.0, 3) as communication_not_overlapped_us,
    round(coalesce(sum(overlapped_ns), 0) / 1000.0, 3) as overlapped_us,
    round(coalesce(sum(free_ns), 0) / 1000.0, 3) as free_us,
    round(coalesce(sum(preparing_ns), 0) / 1000.0, 3) as preparing_us,
    round(coalesce(sum(stage_ns), 0) / 1000.0, 3) as stage_us,
    round(coalesce(sum(bubble_ns), 0) / 1000.0, 3) as bubble_us
from step_answer
where rank_id >= 0 and (:run_id is null or run_id = :run_id) and (:step_id is null or step_id = :step_id)
group by run_id, rank_id
order by run_id, rank_id
