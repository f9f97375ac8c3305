-- title: MindSpore dynamic-shape operators per step
-- description: Per run, MindSpore device, operator (or CUDA kernel) and step, the runs of a dynamic-shape
--     graph (dynamic_shape_info_{device}.json: mindspore_dynamic_shape_op): how often it ran in the step
--     and its mean and summed time, as MindInsight's dynamic shape analysers filter a type
--     (gpu_op_type_info: an operator type's mean per step; gpu_cuda_type_info: a kernel's per step). A
--     step where the operator did not run has no row (MindInsight shows 0).
-- param run_id (integer, default null): Only this run; every run when null.
-- param rank_id (integer, default null): Only this device; every device when null.
-- param op_type (text, default null): Only this operator type (cuLaunchKernel for the kernels); any when null.
-- column run_id: Run.
-- column rank_id: Device.
-- column record: operator (a framework operator) or kernel (a CUDA kernel it launched).
-- column op_type: Operator type (the CUDA API for a kernel).
-- column op_name: Operator name (the kernel's name for a kernel).
-- column step_id: Step.
-- column runs: Its runs in the step.
-- column avg_ns: Their mean time in ns.
-- column total_ns: Their summed time in ns.
with final as (
    select
        s.run_id, o.rank_id, o.record, o.op_type, o.op_name, o.step_id, count(*) as runs, avg(o.dur_ns) as avg_ns,
        sum(o.dur_ns) as total_ns
    from mindspore_dynamic_shape_op as o
    join source as s on s.id = o.source_id and s.status = 'ok'
    where (:run_id is null or s.run_id = :run_id) and (:rank_id is null or o.rank_id = :rank_id)
        and (:op_type is null or o.op_type = :op_type)
    group by s.run_id, o.rank_id, o.record, o.op_type, o.op_name, o.step_id
)

select run_id, rank_id, record, op_type, op_name, step_id, runs, avg_ns, total_ns
from final
order by run_id, rank_id, record desc, op_type, op_name, step_id
