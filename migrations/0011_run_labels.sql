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
