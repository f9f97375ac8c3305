-- Every fact row's source_id names a source that was ingested ok: no rows of a failed,
-- skipped or deleted input survive. One row per table and dangling source_id.
-- for each table with column: source_id
SELECT
    '{table}' AS table_name,
    t.source_id,
    s.status AS source_status,
    count(*) AS row_count
FROM "{table}" AS t
LEFT JOIN source AS s ON s.id = t.source_id
WHERE t.source_id IS NOT NULL AND (s.id IS NULL OR s.status != 'ok')
GROUP BY t.source_id, s.status
