-- Kernels per name of the input being ingested, counted once for name_use.sql (which interns the names
-- and writes their counts from here): by a source that can count them more cheaply than reading its
-- kernel rows back (a kernel CSV, from the scratch rows it copied: warehouse/sources/kit/kernel_csv.py),
-- else by name_use.sql itself, from the rows. name_use.sql then forgets them.
-- TEMP: derived within the input's transaction, never kept; a rollback takes it back too.
CREATE TEMP TABLE IF NOT EXISTS _kernel_name_count (
    -- Input whose kernels were counted (source.id).
    source_id INTEGER NOT NULL,
    -- The kernels' name, as kernel.name holds it (no affinity: kept as it is).
    name,
    -- Number of the input's kernels with that name.
    row_count INTEGER NOT NULL,
    PRIMARY KEY (source_id, name)
)
