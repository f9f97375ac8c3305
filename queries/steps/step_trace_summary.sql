-- title: Step time from the exports (ClusterStepTraceTime)
-- description: Per rank and step, the step time split as torch_npu exported it in
--     step_trace_time.csv / analysis.db / cluster_step_trace_time.csv (msprof-analyze's default cluster
--     output): computing, communication (all and not overlapped), overlap, free, stage and
--     bubble, with each rank's step against the slowest rank of the step. step_time computes
--     the same split from the raw kernels and operators instead.
-- param rank_id (integer, default null): Only this rank; every rank when null.
-- column rank_id: Rank.
-- column step_id: Step number (null when the export leaves it empty).
-- column computing_ns: Computing time in ns.
-- column communication_ns: All communication time in ns.
-- column communication_not_overlapped_ns: Communication not hidden by computing, in ns.
-- column overlapped_ns: Communication hidden by computing, in ns.
-- column free_ns: Idle time in ns.
-- column stage_ns: Stage time in ns.
-- column bubble_ns: Pipeline bubble in ns.
-- column step_total_ns: computing + communication not overlapped + free, in ns.
-- column ratio_to_slowest: step_total_ns / the largest step_total_ns of the step over the ranks.
with rows_of_ranks as (
    select
        rank_id, step_id, computing_ns, communication_ns, communication_not_overlapped_ns, overlapped_ns,
        free_ns, stage_ns, bubble_ns,
        coalesce(computing_ns, 0) + coalesce(communication_not_overlapped_ns, 0) + coalesce(free_ns, 0)
            as step_total_ns
    from step_trace_time
    where scope = 'rank' and (:rank_id is null or rank_id = :rank_id)
),

final as (
    select
        rank_id, step_id, computing_ns, communication_ns, communication_not_overlapped_ns, overlapped_ns,
        free_ns, stage_ns, bubble_ns, step_total_ns,
        1.0 * step_total_ns / nullif(max(step_total_ns) over (partition by step_id), 0) as ratio_to_slowest
    from rows_of_ranks
)

select
    rank_id, step_id, computing_ns, communication_ns, communication_not_overlapped_ns, overlapped_ns,
    free_ns, stage_ns, bubble_ns, step_total_ns, ratio_to_slowest
from final
order by step_id, rank_id
