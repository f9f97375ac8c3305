-- title: Step time breakdown
-- description: Per run, rank and step, where the step's time went in the profiler's own terms
--     (README, "Definitions"): computing, communication not overlapped by computing, overlapped,
--     all communication, free (gaps between device activities), preparing (host step start to
--     the first device activity, kept apart from free), stage and bubble. Where the profiler
--     wrote its own summary (analysis.db, step_trace_time.csv, cluster_step_trace_time.csv) its
--     figures answer, and basis names that input's kind; elsewhere the breakdown derived from
--     the kernels and HCCL operators (the step_breakdown view, same arithmetic) answers (the step_answer view), basis
--     'derived'. warehouse check reconciles the two where both exist. Never adds two runs.
-- param run_id (integer, default null): Only this run; every run when null.
-- param rank_id (integer, default null): Only this rank; every rank when null.
-- column run_id: Run.
-- column rank_id: Rank.
-- column step_id: Step number.
-- column start_ns: Host start of the step (its step marker) in ns; null when only a summary gives the step.
-- column end_ns: Host end of the step in ns; null when only a summary gives the step.
-- column duration_ns: preparing + stage + bubble: host step start to the last device activity, in ns.
-- column computing_ns: Time some compute kernel ran, in ns (Computing).
-- column communication_not_overlapped_ns: Communication not overlapped by computing, in ns (Communication(Not Overlapped)).
-- column overlapped_ns: Communication overlapped by computing, in ns (Overlapped).
-- column communication_ns: Time some communication ran, in ns (Communication).
-- column free_ns: Gaps between the first and the last device activity, in ns (Free).
-- column preparing_ns: Host step start to the first device activity, in ns (Preparing); 0 when the input does not give it.
-- column stage_ns: First to last device activity less the bubble, in ns (Stage).
-- column bubble_ns: Receive operators (hcom_receive*), in ns (Bubble).
-- column basis: Which input answers: analysis_db, step_trace_time_csv, cluster_step_trace_time_csv, or derived.
select
    run_id, rank_id, step_id, start_ns, end_ns, duration_ns, computing_ns, communication_not_overlapped_ns,
    overlapped_ns, communication_ns, free_ns, preparing_ns, stage_ns, bubble_ns, basis
from step_answer
where (:run_id is null or run_id = :run_id) and (:rank_id is null or rank_id = :rank_id)
order by run_id, rank_id, step_id
