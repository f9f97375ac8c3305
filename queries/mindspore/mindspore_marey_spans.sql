-- title: MindSpore marey graph spans
-- description: Per run, step, pipeline stage and device, each operator's span in MindInsight's marey graph
--     (ascend_marey_timeline_{step}.json: mindspore_marey_span, the devices' clocks aligned on their first
--     AllReduce; mindspore_marey_stage groups them into stages) with the operator's scope where
--     scope_map_{step}.json of the run gives one (mindspore_scope_map); the lines the pipeline-parallel
--     view draws from device to device.
-- param run_id (integer, default null): Only this run; every run when null.
-- param step (integer, default null): Only this step; every step when null.
-- column run_id: Run.
-- column step: Step.
-- column stage_id: Pipeline stage (null when the file puts the device in none).
-- column rank_id: Device.
-- column op_name: Operator.
-- column start_us: Its start in aligned us.
-- column end_us: Its end in aligned us.
-- column dur_us: Its length in us.
-- column scope: Its name scope (null when the run has no scope map for the step; '' when it has none).
with spans as (
    select s.run_id, m.source_id, m.source_row, m.step, m.rank_id, m.op_name, m.start_us, m.end_us, m.dur_us
    from mindspore_marey_span as m
    join source as s on s.id = m.source_id and s.status = 'ok'
    where (:run_id is null or s.run_id = :run_id) and (:step is null or m.step = :step)
),

scopes as (
    select s.run_id, c.step, c.op_name, min(c.scope) as scope
    from mindspore_scope_map as c
    join source as s on s.id = c.source_id and s.status = 'ok'
    group by s.run_id, c.step, c.op_name
),

final as (
    select
        p.run_id, p.step, g.stage_id, p.rank_id, p.op_name, p.start_us, p.end_us, p.dur_us, c.scope,
        p.source_id, p.source_row
    from spans as p
    left join mindspore_marey_stage as g on g.source_id = p.source_id and g.rank_id = p.rank_id
    left join scopes as c on c.run_id = p.run_id and c.step = p.step and c.op_name = p.op_name
)

select run_id, step, stage_id, rank_id, op_name, start_us, end_us, dur_us, scope
from final
order by run_id, step, stage_id, rank_id, start_us, source_id, source_row
