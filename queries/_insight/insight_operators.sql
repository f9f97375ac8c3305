-- title: Insight operators
-- description: The compute kernels or the HCCL operators of one rank, longest first, the topK of
--     them: the rows MindStudio Insight's Operator module lists one by one (Ascend/msinsight
--     DbSummaryDataBase.cpp GenerateQueryDetailSqlForOperator, GenerateQueryDetailSqlForHCCL), or
--     those of one group it opened (GenerateQueryMoreInfoSqlForOther: a type and accelerator core,
--     or a name, input shapes and core).
-- param run_id (integer, required): Run of the rank.
-- param rank_id (integer, required): The rank (-1 when unknown).
-- param communication (boolean, required): The HCCL operators; false: the compute kernels.
-- param top_k (integer, default -1): Only the top_k longest; all when -1.
-- param op_type (text, default null): Only operators of this type; any when null.
-- param op_name (text, default null): Only operators of this name; any when null.
-- param input_shapes (text, default null): Only operators of these input shapes ('' for none given); any when null.
-- param acc_core (text, default null): Only kernels of this accelerator core ('' for none given); any when null.
-- column position: Rank by duration, longest first (1 = longest; ties by start, then name).
-- column name: Kernel or operator name.
-- column op_type: Operator type (an HCCL operator's type, or its name less the instance suffix).
-- column acc_core: Accelerator Core (task type) of a kernel; null for an HCCL operator.
-- column ts: Start in ns.
-- column dur: Duration in ns.
-- column wait_ns: Wait before the task in ns, when the input gives it.
-- column block_dim: Block Dim (block number), when given.
-- column input_shapes: Input shapes, when given.
-- column input_dtypes: Input data types, when given.
-- column input_formats: Input formats, when given.
-- column output_shapes: Output shapes, when given.
-- column output_dtypes: Output data types, when given.
-- column output_formats: Output formats, when given.
-- column kernel_id: The kernel's row (kernel.id: insight_kernel_pmu), null for an HCCL operator or a GPU kernel.
-- column task_id: The kernel's task id, when the input gives it; null for an HCCL operator.
with
-- include: _insight_operator_rows
,

ranked as (
    select
        row_number() over (order by dur desc, ts, name) as position,
        name, op_type, acc_core, ts, dur, wait_ns, block_dim, input_shapes, input_dtypes, input_formats,
        output_shapes, output_dtypes, output_formats, kernel_id, task_id
    from operators
    where is_communication = :communication
        and (:op_type is null or op_type = :op_type)
        and (:op_name is null or name = :op_name)
        and (:input_shapes is null or coalesce(input_shapes, '') = :input_shapes)
        and (:acc_core is null or coalesce(acc_core, '') = :acc_core)
),

final as (
    select
        position, name, op_type, acc_core, ts, dur, wait_ns, block_dim, input_shapes, input_dtypes,
        input_formats, output_shapes, output_dtypes, output_formats, kernel_id, task_id
    from ranked
    where :top_k = -1 or position <= :top_k
)

select
    position, name, op_type, acc_core, ts, dur, wait_ns, block_dim, input_shapes, input_dtypes, input_formats,
    output_shapes, output_dtypes, output_formats, kernel_id, task_id
from final
order by position
