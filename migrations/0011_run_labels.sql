-- Labels of a run (issue 17): what a person attaches to a profiling run when ingesting it
-- (`warehouse ingest PATH --run NAME --label commit=abc --label batch=32`), one row per key, so a
-- history of runs can be told apart, filtered and joined on (the trend queries of queries/compare/
-- show them). Written by warehouse/labels.py only; setting a key again replaces its value.
-- run.labels (migration 0008) is left as the model layer writes it: run_label is where labels live.

-- One label of one run: a key and its value.
CREATE TABLE run_label (
    -- Run the label is attached to (run.run_id).
    run_id INTEGER NOT NULL REFERENCES run (run_id),
    -- Label name as given before '=' (e.g. commit, batch).
    key TEXT NOT NULL,
    -- Label value as given after the first '=' (text; may be empty).
    value TEXT NOT NULL,
    PRIMARY KEY (run_id, key)
);

-- The runs in the order they started (a run whose start is unknown first, then by start, then by
-- id), each with the run before it: the history the compare, trend and run_regression queries walk.
CREATE VIEW run_history AS
WITH ordered AS (
    SELECT
        run_id, name, start_ns,
        row_number() OVER (ORDER BY CASE WHEN start_ns IS NULL THEN 0 ELSE 1 END, start_ns, run_id) AS position
    FROM run
)
SELECT
    run_id, name, start_ns,
    -- The run's place in the history, from 1.
    position,
    -- The run started just before it (NULL for the first).
    lag(run_id) OVER (ORDER BY position) AS previous_run_id
FROM ordered;
