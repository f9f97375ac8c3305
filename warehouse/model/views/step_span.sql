-- description: The span of every step of every rank of every run under the profiler's rule: a
--     step holds what starts from its start to the next step's start (torch_npu's step trace,
--     prof_view/_trace_step_time_parser.py), so a kernel in the gap between two steps is the
--     earlier step's, and the last step holds everything after its start. One row per step
--     window (step_window: the markers' steps, or -1, the whole capture of a rank without steps).
-- column run_id: Run.
-- column rank_id: Rank the step ran on (-1 when unknown).
-- column step_id: Step number as the profiler numbers it (-1: the rank's whole capture).
-- column start_ns: Start of the step in ns (its host marker's start).
-- column end_ns: End of the step's host marker in ns (not where the step's span ends).
-- column span_start_ns: Where the step's span starts, in ns: its start (the whole capture's has
--     no start: the smallest integer).
-- column span_end_ns: Where the step's span ends (excluded), in ns: the start of the rank's next
--     step (the last step's has no end: the largest integer).
-- column source_id: Input the step came from.
SELECT
    run_id, rank_id, step_id, start_ns, end_ns,
    CASE WHEN step_id = -1 THEN -9223372036854775808 ELSE start_ns END AS span_start_ns,
    coalesce(lead(start_ns) OVER (PARTITION BY run_id, rank_id ORDER BY start_ns, step_id), 9223372036854775807)
        AS span_end_ns,
    source_id
FROM step_window
