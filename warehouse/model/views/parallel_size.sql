-- description: The parallel sizes as the inputs state them, one row per input whose
--     profiler_metadata.json (or rank db META_DATA, or cluster_analysis.db ClusterBaseInfo, which
--     msprof-analyze copies from a rank's profiler_metadata.json) holds Megatron's distributed_args: its
--     data-, tensor-, pipeline-, context- and expert-parallel sizes and the world size; and one per
--     MindSpore profiler_info_{rank}.json of the older, flat layout: its rank_size (the world size) and
--     stage_num (the pipeline size). Row by row over the inputs' JSON and keys: run_shape reads no JSON.
-- column run_id: Run of the input.
-- column source_id: Input that states the sizes.
-- column rank_id: The rank that wrote them (distributed_args' rank, profiler_info's rank_id), when given
--     (never in ClusterBaseInfo).
-- column dp_size: data_parallel_size, when given.
-- column tp_size: tensor_model_parallel_size, when given.
-- column pp_size: pipeline_model_parallel_size (MindSpore's stage_num), when given.
-- column cp_size: context_parallel_size, when given.
-- column ep_size: expert_model_parallel_size, when given.
-- column world_size: world_size (MindSpore's rank_size), when given.
-- column said_by: distributed_args or mindspore_profiler_info.
SELECT
    s.run_id,
    m.source_id,
    CAST(json_extract(m.value, '$.rank') AS INTEGER) AS rank_id,
    CAST(json_extract(m.value, '$.data_parallel_size') AS INTEGER) AS dp_size,
    CAST(json_extract(m.value, '$.tensor_model_parallel_size') AS INTEGER) AS tp_size,
    CAST(json_extract(m.value, '$.pipeline_model_parallel_size') AS INTEGER) AS pp_size,
    CAST(json_extract(m.value, '$.context_parallel_size') AS INTEGER) AS cp_size,
    CAST(json_extract(m.value, '$.expert_model_parallel_size') AS INTEGER) AS ep_size,
    CAST(json_extract(m.value, '$.world_size') AS INTEGER) AS world_size,
    'distributed_args' AS said_by
FROM run_metadata AS m
JOIN source AS s ON s.id = m.source_id
WHERE m.name = 'distributed_args' AND s.status = 'ok' AND json_valid(m.value) AND json_type(m.value) = 'object'
UNION ALL
SELECT
    s.run_id, m.source_id, s.rank_id, NULL AS dp_size, NULL AS tp_size, CAST(m.value AS INTEGER) AS pp_size,
    NULL AS cp_size, NULL AS ep_size, CAST(z.value AS INTEGER) AS world_size, 'mindspore_profiler_info' AS said_by
FROM run_metadata AS m
JOIN source AS s ON s.id = m.source_id
LEFT JOIN run_metadata AS z ON z.source_id = m.source_id AND z.name = 'rank_size'
WHERE m.name = 'stage_num' AND s.status = 'ok' AND s.kind = 'mindspore_profiler_info_json'
