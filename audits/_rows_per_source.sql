-- Helper (not an audit): the rows each input holds in each table, one row per table and
-- source_id, over every table with a source_id column. source_unread is left out: its rows say
-- what of an input the warehouse does not hold, they are not rows the input added (row_count).
-- for each table with column: source_id
SELECT '{table}' AS table_name, source_id, count(*) AS row_count
FROM "{table}"
WHERE source_id IS NOT NULL AND '{table}' <> 'source_unread'
GROUP BY source_id
