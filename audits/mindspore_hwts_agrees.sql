-- Reconciliation: MindSpore's HWTS tasks of one run and device read from the raw log
-- (hwts.log.data.45.*, which answers: answer_source, fact hwts_task) agree with those of each text dump
-- MindSpore's HWTS parser writes from it (output_format_data_hwts_{device}.txt): the dump's N-th task, in
-- the order the tasks started, is the raw log's N-th, on the same stream, of the same task id (the dump's
-- modulo 65536: later versions add 65536 each time a dynamic-shape graph's task ids start again), starting
-- and ending at the same counter. Lists each task that differs or that one of the two lacks; a run and
-- device holding only one of the two has nothing to compare.
-- examples: 200
WITH numbered AS (
    SELECT t.*, s.run_id, s.kind, row_number() OVER (PARTITION BY t.source_id ORDER BY t.source_row) AS task_number
    FROM mindspore_hwts_task AS t
    JOIN source AS s ON s.id = t.source_id AND s.status = 'ok'
),
answer AS (
    SELECT n.*
    FROM numbered AS n
    JOIN answer_source AS a ON a.source_id = n.source_id AND a.fact = 'hwts_task' AND a.kind = 'mindspore_hwts_raw'
),
dumps AS (
    SELECT s.id AS source_id, s.run_id, s.rank_id
    FROM source AS s
    WHERE s.status = 'ok' AND s.kind = 'mindspore_hwts_txt'
        AND EXISTS (SELECT 1 FROM answer AS r WHERE r.run_id = s.run_id AND r.rank_id = s.rank_id)
),
dumped AS (
    SELECT n.* FROM numbered AS n JOIN dumps AS d ON d.source_id = n.source_id
),
compared AS (
    SELECT
        d.run_id, d.rank_id, d.task_number, d.stream_id, d.task_id, d.source_id AS dump_source_id,
        r.source_id AS raw_source_id,
        CASE
            WHEN r.source_id IS NULL THEN 'missing from the raw log'
            WHEN d.stream_id IS NOT r.stream_id OR d.task_id % 65536 IS NOT r.task_id THEN 'stream/task'
            WHEN d.start_ns IS NOT r.start_ns OR d.end_ns IS NOT r.end_ns THEN 'start/end'
        END AS differs
    FROM dumped AS d
    LEFT JOIN answer AS r ON r.run_id = d.run_id AND r.rank_id = d.rank_id AND r.task_number = d.task_number
    UNION ALL
    SELECT
        r.run_id, r.rank_id, r.task_number, r.stream_id, r.task_id, d.source_id, r.source_id, 'missing from the dump'
    FROM answer AS r
    JOIN dumps AS d ON d.run_id = r.run_id AND d.rank_id = r.rank_id
    WHERE NOT EXISTS (SELECT 1 FROM dumped AS x WHERE x.source_id = d.source_id AND x.task_number = r.task_number)
)
SELECT run_id, rank_id, task_number, differs, stream_id, task_id, dump_source_id, raw_source_id
FROM compared
WHERE differs IS NOT NULL
ORDER BY run_id, rank_id, task_number, dump_source_id
