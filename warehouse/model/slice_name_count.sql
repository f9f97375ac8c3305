-- Slices per name of the input being ingested, as a source that writes its slices from Python
-- counted them while writing (the trace JSON loader: a count in C per batch, where scanning the
-- input's slices again afterwards cost ~0.5 s per 650k slices). name_use.sql takes the input's
-- slice counts from here when there are any, else from its slices, and then forgets them.
-- TEMP: derived within the input's transaction, never kept; a rollback takes it back too.
CREATE TEMP TABLE IF NOT EXISTS _slice_name_count (
    -- Input whose slices were counted (source.id).
    source_id INTEGER NOT NULL,
    -- The slices' name (string.id).
    string_id INTEGER NOT NULL,
    -- Number of the input's slices with that name.
    row_count INTEGER NOT NULL,
    PRIMARY KEY (source_id, string_id)
)
