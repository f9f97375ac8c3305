-- Device kernels (operators run on the NPU), one table whichever export they came from:
-- a rank db's TASK + COMPUTE_TASK_INFO (+ TASK_PMU_INFO), kernel_details.csv or op_summary_*.csv.
-- Pipeline times are in ns; the classification columns follow seed 004 sections 4 and 6.

-- One device kernel execution with its pipeline times and classification.
CREATE TABLE kernel (
    -- Identifier of the kernel row.
    id INTEGER PRIMARY KEY,
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Row in the input: CSV data line number (1 = first line after the header) or the db's TASK rowid.
    source_row INTEGER,
    -- Which export the row came from: rank_db, kernel_details_csv or op_summary_csv.
    origin TEXT NOT NULL,
    -- Rank the kernel ran on (-1 when unknown).
    rank_id INTEGER,
    -- NPU device id, when the input gives it.
    device_id INTEGER,
    -- Training step (Step Id), when the input gives it.
    step_id INTEGER,
    -- Model ID of the task.
    model_id INTEGER,
    -- Task ID on its stream.
    task_id INTEGER,
    -- Stream the task ran on.
    stream_id INTEGER,
    -- Context ID of the task (sub-task of a mix kernel), when given.
    context_id INTEGER,
    -- Global task id in a rank db (TASK.globalTaskId).
    global_task_id INTEGER,
    -- Kernel name (Name / Op Name).
    name TEXT,
    -- Operator type (Type / OP Type / opType).
    op_type TEXT,
    -- Task type (AI_CORE, AI_VECTOR_CORE, MIX_AIC, KERNEL_AIVEC, ...).
    task_type TEXT,
    -- Accelerator Core as the export names it (AI_CORE, AI_VECTOR_CORE, MIX_AIC, MIX_AIV, AI_CPU, COMMUNICATION).
    accelerator_core TEXT,
    -- OP State (dynamic/static), when given.
    op_state TEXT,
    -- Start time in ns.
    ts INTEGER,
    -- Duration in ns.
    dur INTEGER,
    -- Wait time before the task in ns (Wait Time(us)).
    wait_ns INTEGER,
    -- Block Dim: number of cores the kernel used.
    block_dim INTEGER,
    -- Mix Block Dim: cores of the companion type in a mix kernel.
    mix_block_dim INTEGER,
    -- HF32 Eligible, as given (YES/NO).
    hf32_eligible TEXT,
    -- Input shapes, as given (e.g. '32,3,224,224;64').
    input_shapes TEXT,
    -- Input data types.
    input_dtypes TEXT,
    -- Input formats.
    input_formats TEXT,
    -- Output shapes.
    output_shapes TEXT,
    -- Output data types.
    output_dtypes TEXT,
    -- Output formats.
    output_formats TEXT,
    -- aicore_time in ns: time of the AI Cube side.
    aicore_ns INTEGER,
    -- aic_total_cycles.
    aic_total_cycles INTEGER,
    -- aic_mac_time in ns: Cube matrix multiply.
    aic_mac_ns INTEGER,
    -- aic_mac_ratio (0-1).
    aic_mac_ratio REAL,
    -- aic_scalar_time in ns.
    aic_scalar_ns INTEGER,
    -- aic_scalar_ratio (0-1).
    aic_scalar_ratio REAL,
    -- aic_mte1_time in ns: L1 -> L0 moves.
    aic_mte1_ns INTEGER,
    -- aic_mte1_ratio (0-1).
    aic_mte1_ratio REAL,
    -- aic_mte2_time in ns: GM -> L1/L0A/B moves on the Cube side.
    aic_mte2_ns INTEGER,
    -- aic_mte2_ratio (0-1).
    aic_mte2_ratio REAL,
    -- aic_fixpipe_time in ns: write-back and quantisation.
    aic_fixpipe_ns INTEGER,
    -- aic_fixpipe_ratio (0-1).
    aic_fixpipe_ratio REAL,
    -- aic_icache_miss_rate (0-1).
    aic_icache_miss_rate REAL,
    -- aiv_time in ns: time of the AI Vector side.
    aiv_ns INTEGER,
    -- aiv_total_cycles.
    aiv_total_cycles INTEGER,
    -- aiv_vec_time in ns: Vector ALU.
    aiv_vec_ns INTEGER,
    -- aiv_vec_ratio (0-1).
    aiv_vec_ratio REAL,
    -- aiv_scalar_time in ns.
    aiv_scalar_ns INTEGER,
    -- aiv_scalar_ratio (0-1).
    aiv_scalar_ratio REAL,
    -- aiv_mte2_time in ns: GM -> UB moves on the Vector side.
    aiv_mte2_ns INTEGER,
    -- aiv_mte2_ratio (0-1).
    aiv_mte2_ratio REAL,
    -- aiv_mte3_time in ns: UB -> GM moves.
    aiv_mte3_ns INTEGER,
    -- aiv_mte3_ratio (0-1).
    aiv_mte3_ratio REAL,
    -- aiv_icache_miss_rate (0-1).
    aiv_icache_miss_rate REAL,
    -- cube_utilization(%) (0-100).
    cube_utilization_pct REAL,
    -- Other metric columns of the input (bandwidths, cycles of other aic_metrics modes) as a JSON object.
    metrics TEXT,
    -- Class (seed 004): aic, aiv, mix_cv, mix_comm_aiv, communication or aicpu.
    op_class TEXT,
    -- Pipeline family cube = mac + fixpipe, in ns.
    cube_ns INTEGER,
    -- Pipeline family vector = aiv vec, in ns.
    vector_ns INTEGER,
    -- Pipeline family aic_mte = aic mte1 + aic mte2, in ns (never merged with aiv_mte).
    aic_mte_ns INTEGER,
    -- Pipeline family aiv_mte = aiv mte2 + aiv mte3, in ns (never merged with aic_mte).
    aiv_mte_ns INTEGER,
    -- Pipeline family scalar = aic scalar + aiv scalar, in ns.
    scalar_ns INTEGER,
    -- aic when the Cube side's pipeline time exceeds the Vector side's, else aiv; NULL without pipeline times.
    dominant_core TEXT,
    -- The pipeline sub-stage with the most time (mac, fixpipe, aic_mte1, aic_mte2, aic_scalar, vec, aiv_mte2, aiv_mte3, aiv_scalar).
    bound_stage TEXT,
    -- The pipeline family with the most time (cube, vector, aic_mte, aiv_mte, scalar).
    bound_family TEXT,
    -- Category from the kernel-signature table (e.g. attention.flash_score, moe.dispatch, compute.matmul).
    category TEXT,
    -- Device task slice of this kernel on the timeline, when the input has one.
    slice_id INTEGER
);
CREATE INDEX kernel_rank_ts ON kernel (rank_id, ts);
CREATE INDEX kernel_name ON kernel (name);
