-- Reconciliation: each of msprof's .done marks (capture_info filesize of a done_mark source) states the size
-- of the file it marks, the same path without .done, as ingested (its latest source row, whatever its
-- status). Lists each mark whose file differs in size; a mark whose file was not ingested has nothing to
-- compare.
-- examples: 200
WITH marks AS (
    SELECT s.id AS mark_source_id, s.run_id, s.rank_id, substr(s.path, 1, length(s.path) - 5) AS marked_path,
        CAST(i.value AS INTEGER) AS filesize
    FROM capture_info AS i
    JOIN source AS s ON s.id = i.source_id AND s.status = 'ok' AND s.kind = 'done_mark'
    WHERE i.key = 'filesize'
),
marked AS (
    SELECT m.*, (SELECT max(f.id) FROM source AS f WHERE f.path = m.marked_path) AS marked_source_id
    FROM marks AS m
)
SELECT m.run_id, m.rank_id, m.mark_source_id, m.marked_path, m.filesize, f.size_bytes AS marked_size_bytes
FROM marked AS m
JOIN source AS f ON f.id = m.marked_source_id
WHERE f.size_bytes IS NOT m.filesize
ORDER BY m.run_id, m.rank_id, m.marked_path
