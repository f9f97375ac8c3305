-- title: Step time from the exports (ClusterStepTraceTime)
-- description: Per run, rank and step, the step time split as the profiler exported it in
--     analysis.db / step_trace_time.csv / cluster_step_trace_time.csv (msprof-analyze's default
--     cluster output), one row per rank and step even when several of those files hold it (the
--     documented precedence picks one: source_kind names it), with each rank's step against the
--     slowest rank of the step in the same run. step_time answers the same split for every step,
--     derived from the rows where the profiler wrote no summary.
-- param run_id (integer, default null): Only this run; every run when null.
-- param rank_id (integer, default null): Only this rank; every rank when null.
-- column run_id: Run.
-- column rank_id: Rank.
-- column step_id: Step number (null when the export leaves it empty).
-- column computing_ns: Computing time in ns.
-- column communication_ns: All communication time in ns.
-- column communication_not_overlapped_ns: Communication not overlapped by computing, in ns.
-- column overlapped_ns: Communication overlapped by computing, in ns.
-- column free_ns: Idle time in ns.
-- column preparing_ns: Host step start to the first device activity in ns, when the export gives it.
-- column stage_ns: Stage time in ns.
-- column bubble_ns: Pipeline bubble in ns.
-- column step_total_ns: computing + communication not overlapped + free, in ns.
-- column ratio_to_slowest: step_total_ns / the largest step_total_ns of the step over the run's ranks.
-- column source_kind: Kind of the input that answers (analysis_db, step_trace_time_csv, cluster_step_trace_time_csv).
with rows_of_ranks as (
    select
        run_id, rank_id, step_id, computing_ns, communication_ns, communication_not_overlapped_ns, overlapped_ns,
        free_ns, preparing_ns, stage_ns, bubble_ns, kind as source_kind,
        coalesce(computing_ns, 0) + coalesce(communication_not_overlapped_ns, 0) + coalesce(free_ns, 0)
            as step_total_ns
    from step_summary
    where (:run_id is null or run_id = :run_id) and (:rank_id is null or rank_id = :rank_id)
),

final as (
    select
        run_id, rank_id, step_id, computing_ns, communication_ns, communication_not_overlapped_ns, overlapped_ns,
        free_ns, preparing_ns, stage_ns, bubble_ns, step_total_ns, source_kind,
        1.0 * step_total_ns / nullif(max(step_total_ns) over (partition by run_id, step_id), 0) as ratio_to_slowest
    from rows_of_ranks
)

select
    run_id, rank_id, step_id, computing_ns, communication_ns, communication_not_overlapped_ns, overlapped_ns,
    free_ns, preparing_ns, stage_ns, bubble_ns, step_total_ns, ratio_to_slowest, source_kind
from final
order by run_id, step_id, rank_id
