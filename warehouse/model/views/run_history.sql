-- description: The runs in the order they started (a run whose start is unknown first, then by
--     start, then by id), each with the run before it: the history the compare, trend and
--     run_regression queries walk.
-- column run_id: Identifier referenced by source.run_id and by every answer that is per run.
-- column name: Name shown to people and accepted by --run (the root's path as given, or --run
--     NAME).
-- column start_ns: Earliest start time an input of the run states (profiler_info start_info,
--     STEP_TIME, ...), in ns; NULL until known.
-- column position: The run's place in the history, from 1.
-- column previous_run_id: The run started just before it (NULL for the first).
WITH ordered AS (
    SELECT
        run_id, name, start_ns,
        row_number() OVER (ORDER BY CASE WHEN start_ns IS NULL THEN 0 ELSE 1 END, start_ns, run_id) AS position
    FROM run
)
SELECT
    run_id, name, start_ns,
    position,
    lag(run_id) OVER (ORDER BY position) AS previous_run_id
FROM ordered
