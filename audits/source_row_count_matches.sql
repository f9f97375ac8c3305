-- Every source's row_count is the number of rows it holds, all tables together: a source
-- whose rows were partly written, partly deleted or miscounted shows here.
WITH held AS (
    SELECT source_id, sum(row_count) AS rows_held
    FROM _rows_per_source
    GROUP BY source_id
)
SELECT s.id, s.path, s.kind, s.status, s.row_count, coalesce(h.rows_held, 0) AS rows_held
FROM source AS s
LEFT JOIN held AS h ON h.source_id = s.id
WHERE s.row_count != coalesce(h.rows_held, 0)
