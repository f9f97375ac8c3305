-- description: The parallel groups as the inputs state them, one row per (input, group, member
--     rank): each group of a profiler_metadata.json (or a rank db's META_DATA)
--     parallel_group_info, and each group that has a process-group name (pg_name) of
--     communication_group.json's comm_group_parallel_info or of cluster_analysis.db's
--     CommunicationGroup / CommunicationGroupMapping (both msprof-analyze's copies of the ranks'
--     parallel_group_info, the ranks sorted, only the groups that ran a collective). A group names every
--     rank of its global_ranks, so one rank's metadata places its peers too; the same group
--     stated by several inputs is several rows here, one row in rank_group. Row by row over the
--     inputs' JSON (SQLite's json_each): the views over it read no JSON.
-- column run_id: Run of the input.
-- column source_id: Input that states the group.
-- column said_by: parallel_group_info, communication_group or cluster_analysis_db.
-- column trust: 1 for parallel_group_info (the profiler's own record, the group's order kept), 2 for
--     communication_group, 3 for cluster_analysis_db (the lower is trusted first).
-- column group_name: The framework's name of the group (tp, dp, pp, ...).
-- column group_id: The framework's id of the group (parallel_group_info's key, communication_group.json's
--     group_id), when given.
-- column hccl_group: HCCL group name of the group (communication_group.json's or cluster_analysis.db's
--     group_name, as the HCCL operators' group_name), when the input gives it.
-- column global_ranks: The group's global ranks as a JSON array, in the group's order.
-- column group_size: Number of ranks in the group.
-- column rank_id: One member of the group (global rank).
-- column group_index: The member's 0-based position in global_ranks (in a PP group: its pipeline stage).
SELECT
    s.run_id,
    m.source_id,
    'parallel_group_info' AS said_by,
    1 AS trust,
    json_extract(g.value, '$.group_name') AS group_name,
    g.key AS group_id,
    NULL AS hccl_group,
    json_extract(g.value, '$.global_ranks') AS global_ranks,
    json_array_length(g.value, '$.global_ranks') AS group_size,
    CAST(r.value AS INTEGER) AS rank_id,
    CAST(r.key AS INTEGER) AS group_index
FROM run_metadata AS m
JOIN source AS s ON s.id = m.source_id
JOIN json_each(CASE WHEN json_valid(m.value) AND json_type(m.value) = 'object' THEN m.value END) AS g
JOIN json_each(CASE WHEN json_type(g.value, '$.global_ranks') = 'array' THEN json_extract(g.value, '$.global_ranks') END) AS r
WHERE m.name = 'parallel_group_info' AND s.status = 'ok'
UNION ALL
SELECT
    s.run_id,
    c.source_id,
    -- the same rows from either file (communication_group); the json's were the first origin
    CASE WHEN s.kind = 'cluster_analysis_db' THEN 'cluster_analysis_db' ELSE 'communication_group' END,
    CASE WHEN s.kind = 'cluster_analysis_db' THEN 3 ELSE 2 END,
    c.pg_name,
    c.group_id,
    c.group_name,
    c.rank_set,
    json_array_length(c.rank_set),
    CAST(r.value AS INTEGER),
    CAST(r.key AS INTEGER)
FROM communication_group AS c
JOIN source AS s ON s.id = c.source_id
JOIN json_each(CASE WHEN json_valid(c.rank_set) AND json_type(c.rank_set) = 'array' THEN c.rank_set END) AS r
WHERE s.status = 'ok' AND c.pg_name IS NOT NULL AND c.pg_name <> ''
