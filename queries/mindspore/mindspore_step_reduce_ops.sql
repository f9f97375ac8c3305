-- title: MindSpore reduce operators per step
-- description: Per run, MindSpore device and step, each reduce (or parallel) operator MindSpore's step
--     trace records between the step's points (mindspore_step_stream), the reduce lines MindInsight's
--     step trace graph draws (step_trace_analyser query_for_all_reduce), from the input that answers the
--     device's steps (view mindspore_step_phase), longest first within a step.
-- param run_id (integer, default null): Only this run; every run when null.
-- param rank_id (integer, default null): Only this device; every device when null.
-- param step_id (integer, default null): Only this step; every step when null.
-- column run_id: Run.
-- column rank_id: Device.
-- column step_id: Step.
-- column stream_id: Stream the operator ran on.
-- column name: The operator as MindSpore names it (stream_{s}_{i}_{operator}, or stream_{s}_parallel_{i}).
-- column start_ns: Its start in ns.
-- column end_ns: Its end in ns.
-- column duration_ns: Its duration in ns.
select
    p.run_id, p.rank_id, r.step_id, r.stream_id, r.name, r.start_ns, r.end_ns, r.duration_ns
from mindspore_step_phase as p
join mindspore_step_stream as r on r.source_id = p.source_id and r.step_id = p.step_id
where (:run_id is null or p.run_id = :run_id) and (:rank_id is null or p.rank_id = :rank_id)
    and (:step_id is null or p.step_id = :step_id)
order by p.run_id, p.rank_id, r.step_id, r.duration_ns desc, r.name
