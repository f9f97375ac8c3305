-- Reconciliation: MindSpore's AI CPU tasks of one run and device, read from the input that answers
-- (answer_source, fact aicpu_op: the raw DATA_PREPROCESS.dev.AICPU.* file, else the text table), agree with
-- each table MindSpore writes of them that does not answer (output_data_preprocess_aicpu_{device}.txt, which
-- its AI CPU parser writes from the raw file, and aicpu_intermediate_{device}.csv, which its integrator copies
-- from that): a table's task N is the answer's N-th task (the raw file's N-th with a Node record), of the same
-- operator type, run start and end, and total and dispatch time (the tables' ms to 1 us). Lists each task
-- that differs or is missing from the answer; a run and device holding only one of them has nothing to compare.
-- examples: 200
WITH answer AS (
    SELECT o.*, a.run_id, row_number() OVER (PARTITION BY o.source_id ORDER BY o.source_row) AS serial_number
    FROM mindspore_aicpu_op AS o
    JOIN answer_source AS a ON a.source_id = o.source_id AND a.fact = 'aicpu_op'
    WHERE NOT (a.kind = 'mindspore_aicpu_raw' AND o.name IS NULL)
),
listed AS (
    SELECT o.*, s.run_id
    FROM mindspore_aicpu_op AS o
    JOIN source AS s ON s.id = o.source_id AND s.status = 'ok'
        AND s.kind IN ('mindspore_aicpu_txt', 'mindspore_aicpu_csv')
    WHERE o.source_id NOT IN (SELECT source_id FROM answer)
),
compared AS (
    SELECT
        t.run_id, t.rank_id, t.source_row AS serial_number, t.op_type AS table_op_type, r.op_type AS answer_op_type,
        t.source_id AS table_source_id, r.source_id AS answer_source_id,
        CASE
            WHEN r.source_id IS NULL THEN 'missing from the answer'
            WHEN t.op_type IS NOT r.op_type THEN 'op_type'
            WHEN t.run_start IS NOT r.run_start OR t.run_end IS NOT r.run_end THEN 'run_start/run_end'
            WHEN abs(t.total_ns - r.total_ns) > 1000 THEN 'total_ns'
            WHEN abs(t.dispatch_ns - r.dispatch_ns) > 1000 THEN 'dispatch_ns'
        END AS differs
    FROM listed AS t
    JOIN (SELECT DISTINCT run_id, rank_id FROM answer) AS held ON held.run_id = t.run_id AND held.rank_id = t.rank_id
    LEFT JOIN answer AS r ON r.run_id = t.run_id AND r.rank_id = t.rank_id AND r.serial_number = t.source_row
)
SELECT run_id, rank_id, serial_number, differs, table_op_type, answer_op_type, table_source_id, answer_source_id
FROM compared
WHERE differs IS NOT NULL
ORDER BY run_id, rank_id, serial_number, table_source_id
