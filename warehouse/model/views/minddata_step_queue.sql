-- description: Each step's batch on its way to a MindSpore device, as MindInsight's minddata analyser
--     reads it (mindinsight/profiler/analyser/minddata_analyser.py, analyse_device_queue_info): the device
--     queue's size when the step's batch was sent (device_queue_profiling, or dataset_iterator_profiling),
--     whether it was empty (the step waited for the data pipeline) or full, and the step's times to get
--     the batch from the pipeline and push it to the device. A device's dataset_iterator records count
--     only where it has no device_queue records, as MindInsight reads them.
-- column run_id: Run.
-- column rank_id: Device.
-- column source_id: Input the row came from.
-- column step_id: Step (batch) number as written.
-- column queue_size: Batches in the device queue (NULL when the step has no queue record).
-- column queue_capacity: Capacity of the device queue.
-- column is_empty: 1 when the queue was empty, the step waiting for data; else 0.
-- column is_full: 1 when the queue was full (MindInsight's full_queue); else 0.
-- column get_ns: Time to get the batch from the pipeline, in ns.
-- column push_ns: Time to push it to the device, in ns.
-- column total_ns: Both, in ns.
-- column queue_source_row: Line of the queue record (evidence).
WITH fed AS (
    SELECT s.run_id, q.*
    FROM mindspore_device_queue AS q
    JOIN source AS s ON s.id = q.source_id AND s.status = 'ok'
),
records AS (
    SELECT f.*
    FROM fed AS f
    WHERE f.feeder = 'device_queue' OR NOT EXISTS (
        SELECT 1 FROM fed AS d WHERE d.run_id = f.run_id AND d.rank_id = f.rank_id AND d.feeder = 'device_queue')
),
steps AS (
    SELECT
        run_id, rank_id, source_id, step_id,
        max(CASE WHEN record = 'queue' THEN queue_size END) AS queue_size,
        max(CASE WHEN record = 'queue' THEN queue_capacity END) AS queue_capacity,
        sum(CASE WHEN record = 'get' THEN cost_ns END) AS get_ns,
        sum(CASE WHEN record = 'push' THEN cost_ns END) AS push_ns,
        sum(CASE WHEN record = 'total' THEN cost_ns END) AS total_ns,
        min(CASE WHEN record = 'queue' THEN source_row END) AS queue_source_row
    FROM records
    GROUP BY run_id, rank_id, source_id, step_id
)
SELECT
    run_id, rank_id, source_id, step_id, queue_size, queue_capacity,
    CASE WHEN queue_size = 0 THEN 1 ELSE 0 END AS is_empty,
    CASE WHEN queue_size = queue_capacity THEN 1 ELSE 0 END AS is_full,
    get_ns, push_ns, total_ns, queue_source_row
FROM steps
