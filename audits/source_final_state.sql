-- Every source ended in a final, self-consistent state: ok (no error, its ingest
-- finished: elapsed_ns set), failed (a reason, no rows) or skipped (a reason, no rows).
-- An ok row without elapsed_ns is a source whose ingest never finished.
SELECT id, path, kind, status, error, row_count, elapsed_ns
FROM source
WHERE status NOT IN ('ok', 'failed', 'skipped')
   OR elapsed_ns IS NULL
   OR (status = 'ok' AND error IS NOT NULL)
   OR (status != 'ok' AND (error IS NULL OR row_count != 0))
