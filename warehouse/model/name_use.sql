-- After an input's rows are in (migration 0012): the names of its kernels and API calls join the
-- string table (its slices' names are interned already), so the name search finds them, and
-- name_use counts the input's rows of each kind per name, so the search answers without scanning
-- rows. The slices are counted by the source that wrote them when it did so
-- (temp._slice_name_count, slice_name_count.sql), else reached through the input's threads (the
-- (thread_id, ts) index); the kernels and API calls through their source_id indexes. Rows in key
-- order, as the copy of a part (warehouse/merge_name_use.sql) writes them. The kernels are counted
-- per name once, before the names are interned and the counts written (each of which read every
-- kernel row before): by the source as it wrote them (temp._kernel_name_count, kernel_name_count.sql),
-- else here from its rows; the API calls likewise, here (temp._api_name_count, api_name_count.sql).
-- A name longer than :longest bytes (MAX_STRING_BYTES) stays out of the string table, and so out
-- of the search: its trigrams would cost the index seconds and memory per MB.
INSERT INTO temp._kernel_name_count (source_id, name, row_count)
SELECT :source_id, name, count(*)
FROM kernel
WHERE source_id = :source_id AND NOT EXISTS (SELECT 1 FROM temp._kernel_name_count WHERE source_id = :source_id)
GROUP BY name;

INSERT INTO temp._api_name_count (source_id, name, row_count)
SELECT :source_id, name, count(*)
FROM (
    SELECT name FROM pytorch_api WHERE source_id = :source_id
    UNION ALL
    SELECT name FROM cann_api WHERE source_id = :source_id
)
GROUP BY name;

INSERT OR IGNORE INTO string (value)
SELECT name FROM temp._kernel_name_count WHERE source_id = :source_id AND length(CAST(name AS BLOB)) <= :longest
UNION SELECT name FROM temp._api_name_count WHERE source_id = :source_id AND length(CAST(name AS BLOB)) <= :longest
ORDER BY 1;

INSERT INTO name_use (input_source_id, string_id, kind, row_count)
SELECT :source_id, string_id, kind, row_count FROM (
    SELECT string_id, 'slice' AS kind, row_count
    FROM temp._slice_name_count
    WHERE source_id = :source_id
    UNION ALL
    SELECT s.name_id, 'slice', count(*)
    FROM thread AS t CROSS JOIN _slice AS s ON s.thread_id = t.id  -- this order: the planner would scan _slice
    WHERE t.source_id = :source_id AND s.name_id IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM temp._slice_name_count WHERE source_id = :source_id)
    GROUP BY s.name_id
    UNION ALL
    SELECT s.id, 'kernel', k.row_count
    FROM temp._kernel_name_count AS k JOIN string AS s ON s.value = k.name
    WHERE k.source_id = :source_id
    UNION ALL
    SELECT s.id, 'api', a.row_count
    FROM temp._api_name_count AS a JOIN string AS s ON s.value = a.name
    WHERE a.source_id = :source_id
)
ORDER BY string_id, kind;

DELETE FROM temp._slice_name_count WHERE source_id = :source_id;

DELETE FROM temp._kernel_name_count WHERE source_id = :source_id;

DELETE FROM temp._api_name_count WHERE source_id = :source_id;
