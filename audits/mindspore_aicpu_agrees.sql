-- Reconciliation: MindSpore's AI CPU tasks of one run and device read from the raw file
-- (DATA_PREPROCESS.dev.AICPU.*, which answers: answer_source, fact aicpu_op) agree with the table MindSpore's
-- AI CPU parser writes from it (output_data_preprocess_aicpu_{device}.txt): its task N is the raw file's N-th
-- task with a Node record, of the same operator type, run start and end, and total and dispatch time (the
-- table's ms to 1 us). Lists each task that differs or is missing from the raw file; a run and device
-- holding only one of the two has nothing to compare.
-- examples: 200
WITH answer AS (
    SELECT o.*, a.run_id, row_number() OVER (PARTITION BY o.source_id ORDER BY o.source_row) AS serial_number
    FROM mindspore_aicpu_op AS o
    JOIN answer_source AS a ON a.source_id = o.source_id AND a.fact = 'aicpu_op' AND a.kind = 'mindspore_aicpu_raw'
    WHERE o.name IS NOT NULL
),
listed AS (
    SELECT o.*, s.run_id
    FROM mindspore_aicpu_op AS o
    JOIN source AS s ON s.id = o.source_id AND s.status = 'ok' AND s.kind = 'mindspore_aicpu_txt'
),
compared AS (
    SELECT
        t.run_id, t.rank_id, t.source_row AS serial_number, t.op_type AS table_op_type, r.op_type AS raw_op_type,
        t.source_id AS table_source_id, r.source_id AS raw_source_id,
        CASE
            WHEN r.source_id IS NULL THEN 'missing from the raw file'
            WHEN t.op_type IS NOT r.op_type THEN 'op_type'
            WHEN t.run_start IS NOT r.run_start OR t.run_end IS NOT r.run_end THEN 'run_start/run_end'
            WHEN abs(t.total_ns - r.total_ns) > 1000 THEN 'total_ns'
            WHEN abs(t.dispatch_ns - r.dispatch_ns) > 1000 THEN 'dispatch_ns'
        END AS differs
    FROM listed AS t
    JOIN (SELECT DISTINCT run_id, rank_id FROM answer) AS held ON held.run_id = t.run_id AND held.rank_id = t.rank_id
    LEFT JOIN answer AS r ON r.run_id = t.run_id AND r.rank_id = t.rank_id AND r.serial_number = t.source_row
)
SELECT run_id, rank_id, serial_number, differs, table_op_type, raw_op_type, table_source_id, raw_source_id
FROM compared
WHERE differs IS NOT NULL
ORDER BY run_id, rank_id, serial_number
