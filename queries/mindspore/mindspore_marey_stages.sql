-- title: MindSpore marey graph per stage
-- description: Per run, step, pipeline stage and operator, the spread of its spans over the stage's devices
--     in MindInsight's marey graph (mindspore_marey_span by mindspore_marey_stage): earliest, latest and
--     mean start and end, and on how many devices it ran, the stage_data MindInsight's timeline analyser
--     computes (get_ops_by_step).
-- param run_id (integer, default null): Only this run; every run when null.
-- param step (integer, default null): Only this step; every step when null.
-- column run_id: Run.
-- column step: Step.
-- column stage_id: Pipeline stage.
-- column op_name: Operator.
-- column st_min: Earliest start over the stage's devices, aligned us.
-- column st_max: Latest start, aligned us.
-- column st_avg: Mean start, aligned us.
-- column ed_min: Earliest end, aligned us.
-- column ed_max: Latest end, aligned us.
-- column ed_avg: Mean end, aligned us.
-- column n: Devices of the stage it ran on.
with spans as (
    select s.run_id, m.source_id, m.step, g.stage_id, m.op_name, m.start_us, m.end_us
    from mindspore_marey_span as m
    join mindspore_marey_stage as g on g.source_id = m.source_id and g.rank_id = m.rank_id
    join source as s on s.id = m.source_id and s.status = 'ok'
    where (:run_id is null or s.run_id = :run_id) and (:step is null or m.step = :step)
),

final as (
    select
        run_id, step, stage_id, op_name,
        min(start_us) as st_min, max(start_us) as st_max, avg(start_us) as st_avg,
        min(end_us) as ed_min, max(end_us) as ed_max, avg(end_us) as ed_avg,
        count(*) as n
    from spans
    group by run_id, source_id, step, stage_id, op_name
)

select run_id, step, stage_id, op_name, st_min, st_max, st_avg, ed_min, ed_max, ed_avg, n
from final
order by run_id, step, stage_id, st_min, op_name
