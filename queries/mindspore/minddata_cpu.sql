-- title: MindData CPU utilization
-- description: Per run and MindSpore device, the mean of each CPU figure the MindData profiler sampled
--     (minddata_cpu_utilization), for the whole host, the training process and each pipeline operator,
--     as MindInsight's CPU utilization analyser averages them (op_id -1 is no pipeline operator). The
--     host's mean idle utilization leaving over 80 % active is MindInsight's CPU warning.
-- param run_id (integer, default null): Only this run; every run when null.
-- param rank_id (integer, default null): Only this device; every device when null.
-- column run_id: Run.
-- column rank_id: Device.
-- column scope: device (the whole host), process (the training process) or op (one pipeline operator).
-- column op_id: The pipeline operator of an op figure.
-- column metric: The figure (user_utilization, sys_utilization, io_utilization, idle_utilization in
--     percent; runable_processes, context_switch_count).
-- column samples: Samples of the figure.
-- column avg_value: Their mean.
-- column max_value: Their highest.
with samples as (
    select s.run_id, c.rank_id, c.scope, c.op_id, c.metric, c.value
    from mindspore_minddata_cpu as c
    join source as s on s.id = c.source_id and s.status = 'ok'
    where (:run_id is null or s.run_id = :run_id) and (:rank_id is null or c.rank_id = :rank_id)
),

final as (
    select run_id, rank_id, scope, op_id, metric, count(*) as samples, avg(value) as avg_value, max(value) as max_value
    from samples
    group by run_id, rank_id, scope, op_id, metric
)

select run_id, rank_id, scope, op_id, metric, samples, avg_value, max_value
from final
order by run_id, rank_id, scope, op_id, metric
