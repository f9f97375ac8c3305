-- title: MindData pipeline operators and their queues
-- description: Per run and MindSpore device, each operator of the data pipeline with its output queue,
--     the table MindInsight's data-preparation page shows (its minddata pipeline analyser): type,
--     workers, the operator it feeds, mean queue size, capacity and usage rate, and the fullest queue
--     feeding it. An operator whose input queues are fuller than its own is slower than its input; a
--     dataset operator (no input) whose queue stays low is slow to read (rule minddata_data_bound).
-- param run_id (integer, default null): Only this run; every run when null.
-- param rank_id (integer, default null): Only this device; every device when null.
-- column run_id: Run.
-- column rank_id: Device.
-- column op_id: Operator id (0: the last one, read by the device).
-- column op_type: Operator type.
-- column num_workers: Worker threads.
-- column parent_op_id: The operator it feeds (null for the root).
-- column children: Operators feeding it (0 for a dataset operator).
-- column queue_average_size: Mean sampled size of its output queue.
-- column queue_length: Capacity of its output queue.
-- column queue_usage_rate: Mean size over capacity (0-1).
-- column max_child_usage_rate: Highest usage rate of the queues feeding it.
-- column sample_interval_ms: The monitor's sampling interval in ms.
with ops as (
    select
        run_id, rank_id, op_id, op_type, num_workers, parent_op_id, children, queue_average_size, queue_length,
        queue_usage_rate, max_child_usage_rate, sample_interval_ms
    from minddata_op_queue
    where (:run_id is null or run_id = :run_id) and (:rank_id is null or rank_id = :rank_id)
),

final as (
    select
        run_id, rank_id, op_id, op_type, num_workers, parent_op_id, children, queue_average_size, queue_length,
        queue_usage_rate, max_child_usage_rate, sample_interval_ms
    from ops
)

select
    run_id, rank_id, op_id, op_type, num_workers, parent_op_id, children, queue_average_size, queue_length,
    queue_usage_rate, max_child_usage_rate, sample_interval_ms
from final
order by run_id, rank_id, op_id
