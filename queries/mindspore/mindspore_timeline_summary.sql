-- title: MindSpore timeline summary
-- description: Per run and MindSpore device, the figures MindInsight's timeline page shows above the
--     timeline (ascend_timeline_summary / gpu_timeline_summary): the time it spans, its streams,
--     distinct operators and operator runs.
-- param run_id (integer, default null): Only this run; every run when null.
-- column run_id: Run.
-- column rank_id: Device.
-- column device_type: ascend or gpu.
-- column total_ns: Time the timeline spans, in ns.
-- column streams: Streams.
-- column operators: Distinct operators.
-- column operator_runs: Operator runs.
with summaries as (
    select s.run_id, t.rank_id, t.device_type, t.total_ns, t.streams, t.operators, t.operator_runs
    from mindspore_timeline_summary as t
    join source as s on s.id = t.source_id and s.status = 'ok'
    where :run_id is null or s.run_id = :run_id
),

final as (
    select run_id, rank_id, device_type, total_ns, streams, operators, operator_runs
    from summaries
)

select run_id, rank_id, device_type, total_ns, streams, operators, operator_runs
from final
order by run_id, rank_id, device_type
