-- Helper (not an audit): the rows each input holds in each table, one row per table and
-- source_id, over every table with a source_id column.
-- for each table with column: source_id
SELECT '{table}' AS table_name, source_id, count(*) AS row_count
FROM "{table}"
WHERE source_id IS NOT NULL
GROUP BY source_id
