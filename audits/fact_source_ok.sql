-- Every fact row's source_id names a source that was ingested ok: no rows of a failed,
-- skipped or deleted input survive. One row per table and dangling source_id.
SELECT r.table_name, r.source_id, s.status AS source_status, r.row_count
FROM _rows_per_source AS r
LEFT JOIN source AS s ON s.id = r.source_id
WHERE s.id IS NULL OR s.status != 'ok'
