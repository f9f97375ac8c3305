-- Reconciliation: MindSpore's data pipeline of one run and device read from the raw monitor file
-- (pipeline_profiling_{device}.json, which answers the pipeline: answer_source, fact minddata_pipeline)
-- agrees with the intermediate MindSpore's parser writes from it (minddata_pipeline_raw_{device}.csv):
-- every operator of the CSV is in the JSON with the same type, workers, parent, queue capacity, mean
-- queue size and usage rate (to 1e-6). Lists each operator that differs or is missing from the JSON;
-- a run and device holding only one of the two has nothing to compare.
-- examples: 200
WITH ops AS (
    SELECT o.*, s.run_id, s.kind
    FROM mindspore_minddata_op AS o
    JOIN source AS s ON s.id = o.source_id AND s.status = 'ok'
),
answer AS (
    SELECT o.*
    FROM ops AS o
    JOIN answer_source AS a ON a.source_id = o.source_id AND a.fact = 'minddata_pipeline'
    WHERE o.kind = 'mindspore_pipeline_profiling_json'
),
compared AS (
    SELECT
        c.run_id, c.rank_id, c.op_id, c.source_id AS csv_source_id, a.source_id AS json_source_id,
        c.op_type AS csv_op_type, a.op_type AS json_op_type,
        c.queue_usage_rate AS csv_usage_rate, a.queue_usage_rate AS json_usage_rate,
        CASE
            WHEN a.op_id IS NULL THEN 'missing from the JSON'
            WHEN c.op_type IS NOT a.op_type THEN 'op_type'
            WHEN c.num_workers IS NOT a.num_workers THEN 'num_workers'
            WHEN c.parent_op_id IS NOT a.parent_op_id THEN 'parent_op_id'
            WHEN c.queue_length IS NOT a.queue_length THEN 'queue_length'
            WHEN abs(coalesce(c.queue_average_size, 0) - coalesce(a.queue_average_size, 0)) > 1e-6
                THEN 'queue_average_size'
            WHEN abs(coalesce(c.queue_usage_rate, 0) - coalesce(a.queue_usage_rate, 0)) > 1e-6
                THEN 'queue_usage_rate'
        END AS differs
    FROM ops AS c
    JOIN (SELECT DISTINCT run_id, rank_id FROM answer) AS held ON held.run_id = c.run_id AND held.rank_id = c.rank_id
    LEFT JOIN answer AS a ON a.run_id = c.run_id AND a.rank_id = c.rank_id AND a.op_id = c.op_id
    WHERE c.kind = 'mindspore_minddata_pipeline_csv'
)
SELECT run_id, rank_id, op_id, differs, csv_source_id, json_source_id, csv_op_type, json_op_type, csv_usage_rate,
    json_usage_rate
FROM compared
WHERE differs IS NOT NULL
ORDER BY run_id, rank_id, op_id
