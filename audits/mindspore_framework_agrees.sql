-- Reconciliation: MindSpore's framework description of one run and device read from the host files
-- (Framework.host.*.task_desc_info and graph_desc_info, which answer: answer_source, facts framework_task
-- and framework_op) agrees with the intermediate MindSpore's parser writes from them (framework_raw_{device}.csv):
-- every task of the CSV is in the task file with the same operator and block dim, and its operator is in
-- the graph file with the same type and shapes (data types are named differently by the two, formats too
-- in GE's numbering: neither is compared). Lists each task that differs or is missing; a run and device
-- holding only one of the two has nothing to compare.
-- examples: 200
WITH csv AS (
    SELECT t.*, s.run_id
    FROM mindspore_framework_task AS t
    JOIN source AS s ON s.id = t.source_id AND s.status = 'ok' AND s.kind = 'mindspore_framework_raw_csv'
),
host_task AS (
    SELECT t.*, a.run_id
    FROM mindspore_framework_task AS t
    JOIN answer_source AS a ON a.source_id = t.source_id AND a.fact = 'framework_task'
        AND a.kind = 'mindspore_framework_task_desc'
),
host_op AS (
    SELECT o.*, a.run_id
    FROM mindspore_framework_op AS o
    JOIN answer_source AS a ON a.source_id = o.source_id AND a.fact = 'framework_op'
        AND a.kind = 'mindspore_framework_graph_desc'
),
compared AS (
    SELECT
        c.run_id, c.rank_id, c.stream_id, c.task_id, c.op_name AS csv_op_name, h.op_name AS host_op_name,
        c.source_id AS csv_source_id, h.source_id AS host_source_id,
        CASE
            WHEN h.task_id IS NULL THEN 'missing from the task file'
            WHEN c.op_name IS NOT h.op_name THEN 'op_name'
            WHEN c.block_dim IS NOT h.block_dim THEN 'block_dim'
            WHEN NOT EXISTS (SELECT 1 FROM host_op AS g WHERE g.run_id = c.run_id AND g.rank_id = c.rank_id)
                THEN NULL
            WHEN ho.op_name IS NULL THEN 'missing from the graph file'
            WHEN co.op_type IS NOT ho.op_type THEN 'op_type'
            WHEN co.input_shapes IS NOT ho.input_shapes THEN 'input_shapes'
            WHEN co.output_shapes IS NOT ho.output_shapes THEN 'output_shapes'
        END AS differs
    FROM csv AS c
    JOIN (SELECT DISTINCT run_id, rank_id FROM host_task) AS held ON held.run_id = c.run_id AND held.rank_id = c.rank_id
    LEFT JOIN host_task AS h ON h.run_id = c.run_id AND h.rank_id = c.rank_id AND h.task_id = c.task_id
        AND (h.stream_id = c.stream_id OR c.task_id >= 25000)
    LEFT JOIN mindspore_framework_op AS co ON co.source_id = c.source_id AND co.op_name = c.op_name
    LEFT JOIN host_op AS ho ON ho.run_id = c.run_id AND ho.rank_id = c.rank_id AND ho.op_name = c.op_name
)
SELECT run_id, rank_id, stream_id, task_id, differs, csv_op_name, host_op_name, csv_source_id, host_source_id
FROM compared
WHERE differs IS NOT NULL
ORDER BY run_id, rank_id, stream_id, task_id
