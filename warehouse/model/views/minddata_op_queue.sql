-- description: Every operator of a run's MindData pipeline with its output queue, as MindInsight's
--     minddata pipeline analyser shows them (mindinsight/profiler/analyser/minddata_pipeline_analyser.py):
--     from the input answering the pipeline of the rank (answer_source, fact minddata_pipeline: the raw
--     pipeline_profiling JSON, else minddata_pipeline_raw CSV), operator 0 and those with an output queue
--     (the operators MindSpore's parser writes to its CSV). A queue with no samples counts as empty
--     (usage rate 0), as MindInsight reads it.
-- column run_id: Run.
-- column rank_id: Device the pipeline fed.
-- column source_id: Input the row came from.
-- column source_row: Row in the input.
-- column op_id: Operator id (0: the last operator, read by the device).
-- column op_type: Operator type.
-- column num_workers: Its worker threads.
-- column parent_op_id: The operator it feeds (NULL for the root).
-- column children: How many operators of the view feed it (0 for a dataset operator, the pipeline's
--     source).
-- column queue_average_size: Mean sampled size of its output queue.
-- column queue_length: Capacity of its output queue.
-- column queue_usage_rate: Mean size over capacity (0..1; 0 when the queue has no samples).
-- column max_child_usage_rate: The highest usage rate of the queues feeding it (NULL without children):
--     a child's queue fuller than the operator's own says the operator is slower than its input.
-- column sample_interval_ms: The monitor's sampling interval in ms.
WITH answering AS (
    SELECT a.run_id, o.*
    FROM answer_source AS a
    JOIN mindspore_minddata_op AS o ON o.source_id = a.source_id
    WHERE a.fact = 'minddata_pipeline' AND (o.op_id = 0 OR o.queue_length IS NOT NULL)
),
children AS (
    SELECT source_id, parent_op_id, count(*) AS children, max(coalesce(queue_usage_rate, 0)) AS max_child_usage_rate
    FROM answering
    WHERE parent_op_id IS NOT NULL
    GROUP BY source_id, parent_op_id
)
SELECT
    a.run_id, a.rank_id, a.source_id, a.source_row, a.op_id, a.op_type, a.num_workers, a.parent_op_id,
    coalesce(c.children, 0) AS children, a.queue_average_size, a.queue_length,
    coalesce(a.queue_usage_rate, 0) AS queue_usage_rate, c.max_child_usage_rate, a.sample_interval_ms
FROM answering AS a
LEFT JOIN children AS c ON c.source_id = a.source_id AND c.parent_op_id = a.op_id
