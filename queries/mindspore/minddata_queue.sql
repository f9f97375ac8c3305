-- title: MindData device queue per step
-- description: Per run, MindSpore device and step, the device queue when the step's batch was sent
--     and the step's times to get the batch from the data pipeline and push it to the device
--     (device_queue_profiling / dataset_iterator_profiling), as MindInsight's minddata analyser lists
--     them by step: an empty queue means the step waited for data.
-- param run_id (integer, default null): Only this run; every run when null.
-- param rank_id (integer, default null): Only this device; every device when null.
-- column run_id: Run.
-- column rank_id: Device.
-- column step_id: Step (batch) number.
-- column queue_size: Batches in the device queue.
-- column queue_capacity: Capacity of the device queue.
-- column is_empty: 1 when the queue was empty.
-- column is_full: 1 when the queue was full.
-- column get_ns: Time to get the batch from the pipeline in ns.
-- column push_ns: Time to push it to the device in ns.
-- column total_ns: Both in ns.
with steps as (
    select run_id, rank_id, step_id, queue_size, queue_capacity, is_empty, is_full, get_ns, push_ns, total_ns
    from minddata_step_queue
    where (:run_id is null or run_id = :run_id) and (:rank_id is null or rank_id = :rank_id)
),

final as (
    select run_id, rank_id, step_id, queue_size, queue_capacity, is_empty, is_full, get_ns, push_ns, total_ns
    from steps
)

select run_id, rank_id, step_id, queue_size, queue_capacity, is_empty, is_full, get_ns, push_ns, total_ns
from final
order by run_id, rank_id, step_id
