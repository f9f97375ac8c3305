-- description: What each run is, as far as its inputs say: the kind and type of device, the
--     cluster's size, the export and profiler that wrote it, and the size of its kernel set. What
--     run_comparable compares to decide whether two runs run the same model on the same kind of
--     device and cluster (README, "Definitions": comparable runs), and what `warehouse compare`
--     says differs. Device kind NPU: an input only an Ascend profiler writes (every input kind but
--     a trace, trace_json), an NPU_INFO chip, or a trace with Ascend's processes (Ascend Hardware,
--     CANN, HCCL); GPU: a kineto trace's deviceProperties or GPU kernels; else unknown. Device
--     type: the rank db's NPU_INFO chip (npu.N), else the first GPU of deviceProperties. Cluster
--     size: the world size a kineto trace states (distributedInfo), else the ranks ingested.
-- column run_id: Run.
-- column name: Run name.
-- column device_kind: NPU or GPU; NULL when no input says.
-- column device_type: The chip, e.g. Ascend910B or NVIDIA A100-SXM4-80GB; NULL when no input says
--     (a text export names none); the lowest name when the ranks name several.
-- column world_size: The cluster's rank count as the run states it: a kineto trace's distributedInfo,
--     torch_npu's profiler_metadata.json distributed_args; else run_shape's (the largest parallel
--     group or the ranks ingested, whichever is larger).
-- column ranks: Ranks ingested (rank: one per rank id an ok input has, -1 the unknown rank).
-- column cluster_size: world_size, else ranks: the rank count runs are compared by.
-- column export_kind: How the run was exported: db (a rank db), msprof (msprof's timeline or
--     summary CSVs), text (torch_npu's text export, or an Ascend trace alone), op (an operator's
--     msprof op profile), kineto (a kineto trace); NULL without an ok input.
-- column profiler: Profiler that wrote the run (run.profiler).
-- column profiler_version: Version of that profiler (run.profiler_version), when an input says.
-- column export_schema: The rank db's SCHEMA_VERSION (META_DATA), when the run has one.
-- column kernel_names: Distinct names of the run's answering kernels (kernel_answer).
-- column kernel_types: Distinct operator types of those kernels (none for a kineto trace or a
--     level-0 rank db, which give no type).
WITH inputs AS (
    SELECT
        run_id,
        max(CASE WHEN kind = 'rank_db' THEN 1 ELSE 0 END) AS has_db,
        max(CASE WHEN kind IN ('msprof_timeline', 'op_summary_csv', 'task_time_csv', 'msprof_step_trace_csv') THEN 1 ELSE 0 END)
            AS has_msprof,
        max(CASE WHEN kind = 'op_profile' THEN 1 ELSE 0 END) AS has_op,
        max(CASE WHEN kind <> 'trace_json' THEN 1 ELSE 0 END) AS has_ascend_input,
        max(CASE WHEN kind = 'trace_json' THEN 1 ELSE 0 END) AS has_trace
    FROM source
    WHERE status = 'ok' AND run_id IS NOT NULL
    GROUP BY run_id
),

facts AS (
    SELECT
        s.run_id,
        min(CASE WHEN m.name LIKE 'npu.%' THEN m.value END) AS npu_type,
        -- a trace's top-level keys are stored as JSON (json.dumps of each), so always valid JSON
        min(CASE WHEN m.name = 'deviceProperties' AND s.kind = 'trace_json'
            THEN json_extract(m.value, '$[0].name') END) AS gpu_type,
        max(CASE WHEN m.name = 'deviceProperties' THEN 1 ELSE 0 END) AS has_gpu_properties,
        -- profiler_metadata.json's values are stored as JSON too (json.dumps of each)
        max(CASE WHEN (m.name = 'distributedInfo' AND s.kind = 'trace_json')
            OR (m.name = 'distributed_args' AND s.kind = 'profiler_metadata_json')
            THEN CAST(json_extract(m.value, '$.world_size') AS INTEGER) END) AS world_size,
        max(CASE WHEN m.name = 'SCHEMA_VERSION' THEN m.value END) AS export_schema
    FROM run_metadata AS m
    JOIN source AS s ON s.id = m.source_id
    WHERE s.status = 'ok'
    GROUP BY s.run_id
),

ascend_processes AS (
    SELECT DISTINCT s.run_id
    FROM process AS p
    JOIN source AS s ON s.id = p.source_id
    WHERE s.status = 'ok' AND s.kind = 'trace_json' AND p.name IN ('Ascend Hardware', 'CANN', 'HCCL')
),

kernels AS (
    SELECT
        run_id,
        count(DISTINCT name) AS kernel_names,
        count(DISTINCT op_type) AS kernel_types,
        max(CASE WHEN op_class = 'gpu' THEN 1 ELSE 0 END) AS has_gpu_kernels
    FROM kernel_answer
    GROUP BY run_id
),

ranks AS (
    SELECT run_id, count(*) AS ranks
    FROM rank
    GROUP BY run_id
),

described AS (
    SELECT
        r.run_id,
        r.name,
        CASE
            WHEN i.has_ascend_input = 1 OR f.npu_type IS NOT NULL OR a.run_id IS NOT NULL THEN 'NPU'
            WHEN f.has_gpu_properties = 1 OR k.has_gpu_kernels = 1 THEN 'GPU'
        END AS device_kind,
        -- never NULL, an integer on every engine: the stated size, else run_shape's (its largest group or
        -- its ranks)
        f.npu_type, f.gpu_type, CAST(coalesce(f.world_size, sh.world_size, n.ranks, 0) AS BIGINT) AS world_size,
        coalesce(n.ranks, 0) AS ranks,
        i.has_db, i.has_msprof, i.has_op, i.has_ascend_input, i.has_trace,
        r.profiler, r.profiler_version, f.export_schema,
        coalesce(k.kernel_names, 0) AS kernel_names, coalesce(k.kernel_types, 0) AS kernel_types
    FROM run AS r
    LEFT JOIN inputs AS i ON i.run_id = r.run_id
    LEFT JOIN facts AS f ON f.run_id = r.run_id
    LEFT JOIN ascend_processes AS a ON a.run_id = r.run_id
    LEFT JOIN kernels AS k ON k.run_id = r.run_id
    LEFT JOIN ranks AS n ON n.run_id = r.run_id
    LEFT JOIN run_shape AS sh ON sh.run_id = r.run_id
)

SELECT
    run_id,
    name,
    device_kind,
    CASE device_kind WHEN 'NPU' THEN npu_type WHEN 'GPU' THEN gpu_type END AS device_type,
    world_size,
    ranks,
    coalesce(world_size, ranks) AS cluster_size,
    CASE
        WHEN has_db = 1 THEN 'db'
        WHEN has_msprof = 1 THEN 'msprof'
        WHEN has_ascend_input = 1 AND has_op = 0 THEN 'text'
        WHEN has_trace = 1 AND device_kind = 'NPU' THEN 'text'
        WHEN has_op = 1 THEN 'op'
        WHEN has_trace = 1 THEN 'kineto'
    END AS export_kind,
    profiler,
    profiler_version,
    export_schema,
    kernel_names,
    kernel_types
FROM described
