-- Host API calls (pytorch_api and cann_api) per name of the input being ingested, counted once for
-- name_use.sql, which interns the names and writes their counts from here, instead of reading every
-- API row twice (once to intern its name, once to join it to the string table row by row).
-- name_use.sql fills it and then forgets it.
-- TEMP: derived within the input's transaction, never kept; a rollback takes it back too.
CREATE TEMP TABLE IF NOT EXISTS _api_name_count (
    -- Input whose API calls were counted (source.id).
    source_id INTEGER NOT NULL,
    -- The calls' name, as pytorch_api.name and cann_api.name hold it (no affinity: kept as it is).
    name,
    -- Number of the input's API calls with that name.
    row_count INTEGER NOT NULL,
    PRIMARY KEY (source_id, name)
)
