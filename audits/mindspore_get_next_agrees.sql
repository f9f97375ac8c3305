-- Reconciliation: MindSpore's GetNext records of one run and device read from the AI CPU's raw file
-- (DATA_PREPROCESS.dev.AICPUMI.*, which answers: answer_source, fact get_next) agree with the text file
-- MindSpore's minddata parser writes from it (minddata_aicpu_{device}.txt): its N-th GetNext is the raw
-- file's N-th, with the same start, end and queue size. Lists each GetNext that differs or is missing from
-- the raw file; a run and device holding only one of the two has nothing to compare.
-- examples: 200
WITH numbered AS (
    SELECT g.*, s.run_id, s.kind, row_number() OVER (PARTITION BY g.source_id ORDER BY g.source_row) AS number
    FROM mindspore_get_next AS g
    JOIN source AS s ON s.id = g.source_id AND s.status = 'ok'
),
answer AS (
    SELECT n.*
    FROM numbered AS n
    JOIN answer_source AS a ON a.source_id = n.source_id AND a.fact = 'get_next' AND a.kind = 'mindspore_get_next_raw'
),
compared AS (
    SELECT
        t.run_id, t.rank_id, t.number, t.source_id AS text_source_id, r.source_id AS raw_source_id,
        t.start_ns AS text_start_ns, r.start_ns AS raw_start_ns, t.queue_size AS text_queue_size,
        r.queue_size AS raw_queue_size,
        CASE
            WHEN r.source_id IS NULL THEN 'missing from the raw file'
            WHEN t.start_ns IS NOT r.start_ns OR t.end_ns IS NOT r.end_ns THEN 'start_ns/end_ns'
            WHEN t.queue_size IS NOT r.queue_size THEN 'queue_size'
        END AS differs
    FROM numbered AS t
    JOIN (SELECT DISTINCT run_id, rank_id FROM answer) AS held ON held.run_id = t.run_id AND held.rank_id = t.rank_id
    LEFT JOIN answer AS r ON r.run_id = t.run_id AND r.rank_id = t.rank_id AND r.number = t.number
    WHERE t.kind = 'mindspore_get_next_txt'
)
SELECT run_id, rank_id, number, differs, text_source_id, raw_source_id, text_start_ns, raw_start_ns, text_queue_size,
    raw_queue_size
FROM compared
WHERE differs IS NOT NULL
ORDER BY run_id, rank_id, number
