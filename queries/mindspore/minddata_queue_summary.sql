-- title: MindData queue summary
-- description: Per run and MindSpore device, MindInsight's queue summary (minddata analyser,
--     analyse_queue_summary): of the steps with a device queue record, how many found it empty or
--     full, the mean get, push and total times per step; of the device's GetNext calls
--     (minddata_aicpu), how many found their queue empty and their mean wait. More than 30 % empty
--     steps is MindInsight's data-processing warning (rule minddata_data_bound).
-- param run_id (integer, default null): Only this run; every run when null.
-- column run_id: Run.
-- column rank_id: Device.
-- column steps: Steps with a device queue record.
-- column empty_steps: Of them, with an empty device queue.
-- column full_steps: Of them, with a full device queue.
-- column empty_share: empty_steps / steps.
-- column avg_get_ns: Mean time to get a batch from the pipeline, in ns (over the steps with a get record).
-- column avg_push_ns: Mean time to push a batch to the device, in ns.
-- column avg_total_ns: Mean of both, in ns.
-- column get_next_batches: GetNext calls of the device (null without minddata_aicpu).
-- column get_next_empty: Of them, those that found the queue empty.
-- column get_next_avg_wait_ns: Their mean wait in ns.
with queue as (
    select
        run_id, rank_id,
        sum(case when queue_size is not null then 1 else 0 end) as steps,
        sum(case when queue_size is not null then is_empty else 0 end) as empty_steps,
        sum(case when queue_size is not null then is_full else 0 end) as full_steps,
        avg(get_ns) as avg_get_ns, avg(push_ns) as avg_push_ns, avg(total_ns) as avg_total_ns
    from minddata_step_queue
    where :run_id is null or run_id = :run_id
    group by run_id, rank_id
),

get_next as (
    select s.run_id, g.rank_id, count(*) as batches, sum(case when g.queue_size = 0 then 1 else 0 end) as empty,
        avg(g.end_ns - g.start_ns) as avg_wait_ns
    from mindspore_get_next as g
    join source as s on s.id = g.source_id and s.status = 'ok'
    where :run_id is null or s.run_id = :run_id
    group by s.run_id, g.rank_id
),

final as (
    select
        coalesce(q.run_id, g.run_id) as run_id, coalesce(q.rank_id, g.rank_id) as rank_id, q.steps, q.empty_steps,
        q.full_steps, 1.0 * q.empty_steps / nullif(q.steps, 0) as empty_share, q.avg_get_ns, q.avg_push_ns,
        q.avg_total_ns, g.batches as get_next_batches, g.empty as get_next_empty, g.avg_wait_ns as get_next_avg_wait_ns
    from queue as q
    full outer join get_next as g on g.run_id = q.run_id and g.rank_id = q.rank_id
)

select
    run_id, rank_id, steps, empty_steps, full_steps, empty_share, avg_get_ns, avg_push_ns, avg_total_ns,
    get_next_batches, get_next_empty, get_next_avg_wait_ns
from final
order by run_id, rank_id
