-- reads: TASK COMPUTE_TASK_INFO
-- Device kernels: TASK joined with COMPUTE_TASK_INFO, the long TASK_PMU_INFO pivoted into
-- pipeline times (already ns in the db) and ratios; other PMU metrics kept as JSON.
-- A level-0 export writes 'N/A' for the type, the task type and the input and output shapes,
-- data types and formats: they are read as not given (NULL), as the text export's
-- kernel_details.csv reads its N/A cells, so both exports answer alike.
-- The pivot compares small integers (metric.k), not names, on each of the PMU rows, and
-- FILTER keeps each aggregate to its own metric's rows.
WITH metric (k, name) AS (VALUES
    (1, 'aic_total_time'),
    (2, 'aic_total_cycles'),
    (3, 'aic_mac_time'),
    (4, 'aic_mac_ratio'),
    (5, 'aic_scalar_time'),
    (6, 'aic_scalar_ratio'),
    (7, 'aic_mte1_time'),
    (8, 'aic_mte1_ratio'),
    (9, 'aic_mte2_time'),
    (10, 'aic_mte2_ratio'),
    (11, 'aic_fixpipe_time'),
    (12, 'aic_fixpipe_ratio'),
    (13, 'aic_icache_miss_rate'),
    (14, 'aiv_total_time'),
    (15, 'aiv_total_cycles'),
    (16, 'aiv_vec_time'),
    (17, 'aiv_vec_ratio'),
    (18, 'aiv_scalar_time'),
    (19, 'aiv_scalar_ratio'),
    (20, 'aiv_mte2_time'),
    (21, 'aiv_mte2_ratio'),
    (22, 'aiv_mte3_time'),
    (23, 'aiv_mte3_ratio'),
    (24, 'aiv_icache_miss_rate'),
    (25, 'cube_utilization')
),
-- The file's metric names (a few dozen ids), each with its column number (0 = other).
metric_id AS MATERIALIZED (
    SELECT s.id AS src_id, s.value AS name, COALESCE(m.k, 0) AS k
    FROM (SELECT DISTINCT name FROM in_TASK_PMU_INFO) AS d
    JOIN in_STRING_IDS AS s ON s.id = d.name
    LEFT JOIN metric AS m ON m.name = s.value
),
pmu AS (
    SELECT
        p.globalTaskId AS global_task_id,
        MAX(p.value) FILTER (WHERE i.k = 1) AS aicore_ns,
        MAX(p.value) FILTER (WHERE i.k = 2) AS aic_total_cycles,
        MAX(p.value) FILTER (WHERE i.k = 3) AS aic_mac_ns,
        MAX(p.value) FILTER (WHERE i.k = 4) AS aic_mac_ratio,
        MAX(p.value) FILTER (WHERE i.k = 5) AS aic_scalar_ns,
        MAX(p.value) FILTER (WHERE i.k = 6) AS aic_scalar_ratio,
        MAX(p.value) FILTER (WHERE i.k = 7) AS aic_mte1_ns,
        MAX(p.value) FILTER (WHERE i.k = 8) AS aic_mte1_ratio,
        MAX(p.value) FILTER (WHERE i.k = 9) AS aic_mte2_ns,
        MAX(p.value) FILTER (WHERE i.k = 10) AS aic_mte2_ratio,
        MAX(p.value) FILTER (WHERE i.k = 11) AS aic_fixpipe_ns,
        MAX(p.value) FILTER (WHERE i.k = 12) AS aic_fixpipe_ratio,
        MAX(p.value) FILTER (WHERE i.k = 13) AS aic_icache_miss_rate,
        MAX(p.value) FILTER (WHERE i.k = 14) AS aiv_ns,
        MAX(p.value) FILTER (WHERE i.k = 15) AS aiv_total_cycles,
        MAX(p.value) FILTER (WHERE i.k = 16) AS aiv_vec_ns,
        MAX(p.value) FILTER (WHERE i.k = 17) AS aiv_vec_ratio,
        MAX(p.value) FILTER (WHERE i.k = 18) AS aiv_scalar_ns,
        MAX(p.value) FILTER (WHERE i.k = 19) AS aiv_scalar_ratio,
        MAX(p.value) FILTER (WHERE i.k = 20) AS aiv_mte2_ns,
        MAX(p.value) FILTER (WHERE i.k = 21) AS aiv_mte2_ratio,
        MAX(p.value) FILTER (WHERE i.k = 22) AS aiv_mte3_ns,
        MAX(p.value) FILTER (WHERE i.k = 23) AS aiv_mte3_ratio,
        MAX(p.value) FILTER (WHERE i.k = 24) AS aiv_icache_miss_rate,
        MAX(p.value) FILTER (WHERE i.k = 25) AS cube_utilization_pct,
        NULLIF(json_group_object(i.name, p.value) FILTER (WHERE i.k = 0), '{}') AS metrics
    FROM in_TASK_PMU_INFO AS p
    JOIN metric_id AS i ON i.src_id = p.name
    GROUP BY p.globalTaskId
)
INSERT INTO kernel (
    source_id, source_row, origin, rank_id, device_id, step_id, model_id, task_id, stream_id, context_id,
    global_task_id, name, op_type, task_type, accelerator_core, op_state, ts, dur, block_dim, mix_block_dim,
    hf32_eligible, input_shapes, input_dtypes, input_formats, output_shapes, output_dtypes, output_formats,
    aicore_ns, aic_total_cycles, aic_mac_ns, aic_mac_ratio, aic_scalar_ns, aic_scalar_ratio, aic_mte1_ns,
    aic_mte1_ratio, aic_mte2_ns, aic_mte2_ratio, aic_fixpipe_ns, aic_fixpipe_ratio, aic_icache_miss_rate,
    aiv_ns, aiv_total_cycles, aiv_vec_ns, aiv_vec_ratio, aiv_scalar_ns, aiv_scalar_ratio, aiv_mte2_ns,
    aiv_mte2_ratio, aiv_mte3_ns, aiv_mte3_ratio, aiv_icache_miss_rate, cube_utilization_pct, metrics, slice_id
)
SELECT
    :source_id,
    t._row,
    'rank_db',
    :rank_id,
    t.deviceId,
    -- include: _task_step
    ,
    t.modelId,
    t.taskId,
    t.streamId,
    t.contextId,
    t.globalTaskId,
    n.value,
    ot.value,
    tt.value,
    tt.value,
    os.value,
    CAST(t.startNs AS INTEGER),
    CAST(t.endNs AS INTEGER) - CAST(t.startNs AS INTEGER),
    c.blockDim,
    c.mixBlockDim,
    hf.value,
    TRIM(ish.value, '"'),
    TRIM(idt.value, '"'),
    TRIM(ifm.value, '"'),
    TRIM(osh.value, '"'),
    TRIM(odt.value, '"'),
    TRIM(ofm.value, '"'),
    CAST(ROUND(pmu.aicore_ns) AS INTEGER),
    CAST(pmu.aic_total_cycles AS INTEGER),
    CAST(ROUND(pmu.aic_mac_ns) AS INTEGER),
    pmu.aic_mac_ratio,
    CAST(ROUND(pmu.aic_scalar_ns) AS INTEGER),
    pmu.aic_scalar_ratio,
    CAST(ROUND(pmu.aic_mte1_ns) AS INTEGER),
    pmu.aic_mte1_ratio,
    CAST(ROUND(pmu.aic_mte2_ns) AS INTEGER),
    pmu.aic_mte2_ratio,
    CAST(ROUND(pmu.aic_fixpipe_ns) AS INTEGER),
    pmu.aic_fixpipe_ratio,
    pmu.aic_icache_miss_rate,
    CAST(ROUND(pmu.aiv_ns) AS INTEGER),
    CAST(pmu.aiv_total_cycles AS INTEGER),
    CAST(ROUND(pmu.aiv_vec_ns) AS INTEGER),
    pmu.aiv_vec_ratio,
    CAST(ROUND(pmu.aiv_scalar_ns) AS INTEGER),
    pmu.aiv_scalar_ratio,
    CAST(ROUND(pmu.aiv_mte2_ns) AS INTEGER),
    pmu.aiv_mte2_ratio,
    CAST(ROUND(pmu.aiv_mte3_ns) AS INTEGER),
    pmu.aiv_mte3_ratio,
    pmu.aiv_icache_miss_rate,
    pmu.cube_utilization_pct,
    pmu.metrics,
    :base_task + t._row
FROM in_TASK AS t
JOIN in_COMPUTE_TASK_INFO AS c ON c.globalTaskId = t.globalTaskId
LEFT JOIN pmu ON pmu.global_task_id = t.globalTaskId
LEFT JOIN in_STRING_IDS AS n ON n.id = c.name
LEFT JOIN in_STRING_IDS AS ot ON ot.id = c.opType AND ot.value NOT IN ('N/A', '')
LEFT JOIN in_STRING_IDS AS tt ON tt.id = c.taskType AND tt.value NOT IN ('N/A', '')
LEFT JOIN in_STRING_IDS AS os ON os.id = c.opState
LEFT JOIN in_STRING_IDS AS hf ON hf.id = c.hf32Eligible
LEFT JOIN in_STRING_IDS AS ish ON ish.id = c.inputShapes AND ish.value NOT IN ('N/A', '')
LEFT JOIN in_STRING_IDS AS idt ON idt.id = c.inputDataTypes AND idt.value NOT IN ('N/A', '')
LEFT JOIN in_STRING_IDS AS ifm ON ifm.id = c.inputFormats AND ifm.value NOT IN ('N/A', '')
LEFT JOIN in_STRING_IDS AS osh ON osh.id = c.outputShapes AND osh.value NOT IN ('N/A', '')
LEFT JOIN in_STRING_IDS AS odt ON odt.id = c.outputDataTypes AND odt.value NOT IN ('N/A', '')
LEFT JOIN in_STRING_IDS AS ofm ON ofm.id = c.outputFormats AND ofm.value NOT IN ('N/A', '');
