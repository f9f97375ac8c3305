-- description: The device kernels that answer for each rank of each run: the kernel input's
--     (fact_precedence), and for a rank no kernel input answers (a GPU kineto trace) its
--     timeline's GPU kernels (gpu_kernel, with NULL for the fields a trace does not give);
--     communication excluded either way: HCCL operators (in hccl_operator whichever export holds
--     them) and NCCL kernels. What kernel answers read: top_kernels, the report, compare, the rules.
-- column run_id: Run.
-- column id: Identifier of the kernel row (NULL for a GPU kernel: its row is slice_id).
-- column source_id: Input the row came from.
-- column source_row: Row in the input: CSV data line number (1 = first line after the header),
--     the db's TASK rowid, or a trace's event index.
-- column origin: Which export the row came from: rank_db, kernel_details_csv or op_summary_csv;
--     the timeline's kind (trace_json) for a GPU kernel.
-- column rank_id: Rank the kernel ran on (-1 when unknown).
-- column device_id: NPU device id, when the input gives it.
-- column step_id: Training step (Step Id), when the input gives it.
-- column model_id: Model ID of the task.
-- column task_id: Task ID on its stream.
-- column stream_id: Stream the task ran on.
-- column context_id: Context ID of the task (sub-task of a mix kernel), when given.
-- column global_task_id: Global task id in a rank db (TASK.globalTaskId).
-- column name: Kernel name (Name / Op Name).
-- column op_type: Operator type (Type / OP Type / opType).
-- column task_type: Task type (AI_CORE, AI_VECTOR_CORE, MIX_AIC, KERNEL_AIVEC, ...).
-- column accelerator_core: Accelerator Core as the export names it (AI_CORE, AI_VECTOR_CORE,
--     MIX_AIC, MIX_AIV, AI_CPU, COMMUNICATION).
-- column op_state: OP State (dynamic/static), when given.
-- column ts: Start time in ns.
-- column dur: Duration in ns.
-- column wait_ns: Wait time before the task in ns (Wait Time(us)).
-- column block_dim: Block Dim: number of cores the kernel used.
-- column mix_block_dim: Mix Block Dim: cores of the companion type in a mix kernel.
-- column hf32_eligible: HF32 Eligible, as given (YES/NO).
-- column input_shapes: Input shapes, as given (e.g. '32,3,224,224;64').
-- column input_dtypes: Input data types.
-- column input_formats: Input formats.
-- column output_shapes: Output shapes.
-- column output_dtypes: Output data types.
-- column output_formats: Output formats.
-- column aicore_ns: aicore_time in ns: time of the AI Cube side.
-- column aic_total_cycles: aic_total_cycles.
-- column aic_mac_ns: aic_mac_time in ns: Cube matrix multiply.
-- column aic_mac_ratio: aic_mac_ratio (0-1).
-- column aic_scalar_ns: aic_scalar_time in ns.
-- column aic_scalar_ratio: aic_scalar_ratio (0-1).
-- column aic_mte1_ns: aic_mte1_time in ns: L1 -> L0 moves.
-- column aic_mte1_ratio: aic_mte1_ratio (0-1).
-- column aic_mte2_ns: aic_mte2_time in ns: GM -> L1/L0A/B moves on the Cube side.
-- column aic_mte2_ratio: aic_mte2_ratio (0-1).
-- column aic_fixpipe_ns: aic_fixpipe_time in ns: write-back and quantisation.
-- column aic_fixpipe_ratio: aic_fixpipe_ratio (0-1).
-- column aic_icache_miss_rate: aic_icache_miss_rate (0-1).
-- column aiv_ns: aiv_time in ns: time of the AI Vector side.
-- column aiv_total_cycles: aiv_total_cycles.
-- column aiv_vec_ns: aiv_vec_time in ns: Vector ALU.
-- column aiv_vec_ratio: aiv_vec_ratio (0-1).
-- column aiv_scalar_ns: aiv_scalar_time in ns.
-- column aiv_scalar_ratio: aiv_scalar_ratio (0-1).
-- column aiv_mte2_ns: aiv_mte2_time in ns: GM -> UB moves on the Vector side.
-- column aiv_mte2_ratio: aiv_mte2_ratio (0-1).
-- column aiv_mte3_ns: aiv_mte3_time in ns: UB -> GM moves.
-- column aiv_mte3_ratio: aiv_mte3_ratio (0-1).
-- column aiv_icache_miss_rate: aiv_icache_miss_rate (0-1).
-- column cube_utilization_pct: cube_utilization(%) (0-100).
-- column metrics: Other metric columns of the input (bandwidths, cycles of other aic_metrics
--     modes) as a JSON object.
-- column op_class: Class (seed 004): aic, aiv, mix_cv, mix_comm_aiv, aicpu, ... or gpu (op_class).
-- column cube_ns: Pipeline family cube = mac + fixpipe, in ns.
-- column vector_ns: Pipeline family vector = aiv vec, in ns.
-- column aic_mte_ns: Pipeline family aic_mte = aic mte1 + aic mte2, in ns (never merged with
--     aiv_mte).
-- column aiv_mte_ns: Pipeline family aiv_mte = aiv mte2 + aiv mte3, in ns (never merged with
--     aic_mte).
-- column scalar_ns: Pipeline family scalar = aic scalar + aiv scalar, in ns.
-- column dominant_core: aic when the Cube side's pipeline time exceeds the Vector side's, else
--     aiv; NULL without pipeline times.
-- column bound_stage: The pipeline sub-stage with the most time (mac, fixpipe, aic_mte1,
--     aic_mte2, aic_scalar, vec, aiv_mte2, aiv_mte3, aiv_scalar).
-- column bound_family: The pipeline family with the most time (cube, vector, aic_mte, aiv_mte,
--     scalar).
-- column category: Category from the kernel-signature table (e.g. attention.flash_score,
--     moe.dispatch, compute.matmul).
-- column slice_id: Device task slice of this kernel on the timeline, when the input has one; a GPU
--     kernel's own slice.
SELECT a.run_id, k.*
FROM kernel AS k
JOIN answer_source AS a ON a.source_id = k.source_id AND a.fact = 'kernel'
WHERE k.op_class IS NOT 'communication'
UNION ALL
-- the kernel table's columns in its order: a trace gives the name, times and class, no more
SELECT
    g.run_id, NULL AS id, g.source_id, g.source_row, s.kind AS origin, g.rank_id, NULL AS device_id,
    NULL AS step_id, NULL AS model_id, NULL AS task_id, NULL AS stream_id, NULL AS context_id,
    NULL AS global_task_id, g.name, NULL AS op_type, NULL AS task_type, NULL AS accelerator_core,
    NULL AS op_state, g.ts, g.dur, NULL AS wait_ns, NULL AS block_dim, NULL AS mix_block_dim,
    NULL AS hf32_eligible, NULL AS input_shapes, NULL AS input_dtypes, NULL AS input_formats,
    NULL AS output_shapes, NULL AS output_dtypes, NULL AS output_formats,
    NULL AS aicore_ns, NULL AS aic_total_cycles, NULL AS aic_mac_ns, NULL AS aic_mac_ratio,
    NULL AS aic_scalar_ns, NULL AS aic_scalar_ratio, NULL AS aic_mte1_ns, NULL AS aic_mte1_ratio,
    NULL AS aic_mte2_ns, NULL AS aic_mte2_ratio, NULL AS aic_fixpipe_ns, NULL AS aic_fixpipe_ratio,
    NULL AS aic_icache_miss_rate, NULL AS aiv_ns, NULL AS aiv_total_cycles, NULL AS aiv_vec_ns,
    NULL AS aiv_vec_ratio, NULL AS aiv_scalar_ns, NULL AS aiv_scalar_ratio, NULL AS aiv_mte2_ns,
    NULL AS aiv_mte2_ratio, NULL AS aiv_mte3_ns, NULL AS aiv_mte3_ratio, NULL AS aiv_icache_miss_rate,
    NULL AS cube_utilization_pct, NULL AS metrics, g.op_class, NULL AS cube_ns, NULL AS vector_ns,
    NULL AS aic_mte_ns, NULL AS aiv_mte_ns, NULL AS scalar_ns, NULL AS dominant_core, NULL AS bound_stage,
    NULL AS bound_family, NULL AS category, g.slice_id
FROM gpu_kernel AS g
JOIN source AS s ON s.id = g.source_id
WHERE g.op_class IS NOT 'communication'
    -- a rank a kernel input answers (an Ascend rank beside its trace_view.json) keeps those
    -- kernels alone; tested before its slices are read
    AND NOT EXISTS (
        SELECT 1 FROM answer_source AS a
        WHERE a.run_id = g.run_id AND a.rank_id = g.rank_id AND a.fact = 'kernel'
    )
