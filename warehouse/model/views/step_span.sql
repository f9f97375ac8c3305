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
-- column next_start_ns: Start of the rank's next step in ns, where this step's span ends; NULL
--     for the last step (its span has no end).
-- column source_id: Input the step came from.
SELECT
    run_id, rank_id, step_id, start_ns, end_ns,
    lead(start_ns) OVER (PARTITION BY run_id, rank_id ORDER BY start_ns, step_id) AS next_start_ns,
    source_id
FROM step_window
