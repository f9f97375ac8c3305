-- title: Insight operators
-- description: Every operator of one rank, compute kernels and HCCL operators, longest first:
--     the rows MindStudio Insight's Operator module lists one by one (Ascend/msinsight
--     DbSummaryDataBase.cpp GenerateQueryDetailSqlForOperator, GenerateQueryDetailSqlForHCCL).
-- param run_id (integer, required): Run of the rank.
-- param rank_id (integer, required): The rank (-1 when unknown).
-- column is_communication: 1 for an HCCL operator, 0 for a compute kernel.
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
-- column origin: Export a kernel came from (rank_db, kernel_details_csv, op_summary_csv, a trace's kind).
-- column pmu: A kernel's PMU figures of kernel_answer's columns (aicore_ns to cube_utilization_pct), as a
--     JSON object keyed by column name (null values for those its export does not give).
-- column metrics: A kernel's other PMU figures, as a JSON object named as its export names them.
with
-- include: _insight_operator_rows
,

final as (
    select
        is_communication, name, op_type, acc_core, ts, dur, wait_ns, block_dim, input_shapes, input_dtypes,
        input_formats, output_shapes, output_dtypes, output_formats, origin, pmu, metrics
    from operators
)

select
    is_communication, name, op_type, acc_core, ts, dur, wait_ns, block_dim, input_shapes, input_dtypes,
    input_formats, output_shapes, output_dtypes, output_formats, origin, pmu, metrics
from final
order by is_communication, dur desc, ts, name
