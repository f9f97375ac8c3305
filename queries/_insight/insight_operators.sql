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
-- column aicore_ns: PMU figure aicore_ns of kernel_answer, when the export gives it.
-- column aic_total_cycles: PMU figure aic_total_cycles of kernel_answer, when the export gives it.
-- column aic_mac_ns: PMU figure aic_mac_ns of kernel_answer, when the export gives it.
-- column aic_mac_ratio: PMU figure aic_mac_ratio of kernel_answer, when the export gives it.
-- column aic_scalar_ns: PMU figure aic_scalar_ns of kernel_answer, when the export gives it.
-- column aic_scalar_ratio: PMU figure aic_scalar_ratio of kernel_answer, when the export gives it.
-- column aic_mte1_ns: PMU figure aic_mte1_ns of kernel_answer, when the export gives it.
-- column aic_mte1_ratio: PMU figure aic_mte1_ratio of kernel_answer, when the export gives it.
-- column aic_mte2_ns: PMU figure aic_mte2_ns of kernel_answer, when the export gives it.
-- column aic_mte2_ratio: PMU figure aic_mte2_ratio of kernel_answer, when the export gives it.
-- column aic_fixpipe_ns: PMU figure aic_fixpipe_ns of kernel_answer, when the export gives it.
-- column aic_fixpipe_ratio: PMU figure aic_fixpipe_ratio of kernel_answer, when the export gives it.
-- column aic_icache_miss_rate: PMU figure aic_icache_miss_rate of kernel_answer, when the export gives it.
-- column aiv_ns: PMU figure aiv_ns of kernel_answer, when the export gives it.
-- column aiv_total_cycles: PMU figure aiv_total_cycles of kernel_answer, when the export gives it.
-- column aiv_vec_ns: PMU figure aiv_vec_ns of kernel_answer, when the export gives it.
-- column aiv_vec_ratio: PMU figure aiv_vec_ratio of kernel_answer, when the export gives it.
-- column aiv_scalar_ns: PMU figure aiv_scalar_ns of kernel_answer, when the export gives it.
-- column aiv_scalar_ratio: PMU figure aiv_scalar_ratio of kernel_answer, when the export gives it.
-- column aiv_mte2_ns: PMU figure aiv_mte2_ns of kernel_answer, when the export gives it.
-- column aiv_mte2_ratio: PMU figure aiv_mte2_ratio of kernel_answer, when the export gives it.
-- column aiv_mte3_ns: PMU figure aiv_mte3_ns of kernel_answer, when the export gives it.
-- column aiv_mte3_ratio: PMU figure aiv_mte3_ratio of kernel_answer, when the export gives it.
-- column aiv_icache_miss_rate: PMU figure aiv_icache_miss_rate of kernel_answer, when the export gives it.
-- column cube_utilization_pct: PMU figure cube_utilization_pct of kernel_answer, when the export gives it.
-- column metrics: A kernel's other PMU figures, as a JSON object named as its export names them.
with
-- include: _insight_operator_rows
,

final as (
    select
        is_communication, name, op_type, acc_core, ts, dur, wait_ns, block_dim, input_shapes, input_dtypes,
        input_formats, output_shapes, output_dtypes, output_formats, origin, aicore_ns, aic_total_cycles,
        aic_mac_ns, aic_mac_ratio, aic_scalar_ns, aic_scalar_ratio, aic_mte1_ns, aic_mte1_ratio, aic_mte2_ns,
        aic_mte2_ratio, aic_fixpipe_ns, aic_fixpipe_ratio, aic_icache_miss_rate, aiv_ns, aiv_total_cycles,
        aiv_vec_ns, aiv_vec_ratio, aiv_scalar_ns, aiv_scalar_ratio, aiv_mte2_ns, aiv_mte2_ratio, aiv_mte3_ns,
        aiv_mte3_ratio, aiv_icache_miss_rate, cube_utilization_pct, metrics
    from operators
)

select
    is_communication, name, op_type, acc_core, ts, dur, wait_ns, block_dim, input_shapes, input_dtypes,
    input_formats, output_shapes, output_dtypes, output_formats, origin, aicore_ns, aic_total_cycles,
    aic_mac_ns, aic_mac_ratio, aic_scalar_ns, aic_scalar_ratio, aic_mte1_ns, aic_mte1_ratio, aic_mte2_ns,
    aic_mte2_ratio, aic_fixpipe_ns, aic_fixpipe_ratio, aic_icache_miss_rate, aiv_ns, aiv_total_cycles,
    aiv_vec_ns, aiv_vec_ratio, aiv_scalar_ns, aiv_scalar_ratio, aiv_mte2_ns, aiv_mte2_ratio, aiv_mte3_ns,
    aiv_mte3_ratio, aiv_icache_miss_rate, cube_utilization_pct, metrics
from final
order by is_communication, dur desc, ts, name
