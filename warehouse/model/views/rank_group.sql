-- description: The parallel groups of each run's ranks, one row per (run, rank, group): the
--     cluster's shape as the profiler wrote it (parallel_group_member, once per group however
--     many inputs state it). Sources in order of trust: profiler_metadata.json's (or a rank
--     db's META_DATA) parallel_group_info, then communication_group.json's
--     comm_group_parallel_info, then cluster_analysis.db's CommunicationGroup(Mapping); for a
--     rank and a group name only the most trusted source that names one is kept.
-- column run_id: Run.
-- column rank_id: Global rank.
-- column kind: DP, TP, PP, CP or EP when the group's name says it (dp, tp, pp, cp, ep or exp, as
--     Megatron and MindSpeed name them); NULL for the other groups (default_group, dp_cp, mp, embd, ...).
-- column group_name: The framework's name of the group (tp, dp, pp, ...).
-- column global_ranks: The group's global ranks as a JSON array, in the group's order.
-- column group_size: Number of ranks in the group.
-- column group_index: The rank's 0-based position in global_ranks (in a PP group: its pipeline stage).
-- column group_id: The framework's id of the group, when given.
-- column hccl_group: HCCL group name of the group (communication_group.json's or cluster_analysis.db's
--     group_name, as the HCCL operators' group_name), when an input gives it.
-- column said_by: The input kind that says it: parallel_group_info, communication_group or
--     cluster_analysis_db.
-- column trust: Its place in that order (parallel_group_member.trust: 1 is trusted first).
WITH trusted AS (
    SELECT
        run_id, rank_id, trust, said_by, group_name, global_ranks, group_size, group_index, group_id,
        min(trust) OVER (PARTITION BY run_id, rank_id, group_name) AS best
    FROM parallel_group_member
),
hccl_groups AS (
    SELECT run_id, group_id, max(hccl_group) AS hccl_group
    FROM parallel_group_member
    WHERE hccl_group IS NOT NULL AND group_id IS NOT NULL
    GROUP BY run_id, group_id
)
SELECT DISTINCT
    t.run_id,
    t.rank_id,
    CASE lower(t.group_name)
        WHEN 'dp' THEN 'DP' WHEN 'tp' THEN 'TP' WHEN 'pp' THEN 'PP' WHEN 'cp' THEN 'CP'
        WHEN 'ep' THEN 'EP' WHEN 'exp' THEN 'EP'
    END AS kind,
    t.group_name,
    t.global_ranks,
    t.group_size,
    t.group_index,
    t.group_id,
    h.hccl_group,
    t.said_by,
    t.trust
FROM trusted AS t
LEFT JOIN hccl_groups AS h ON h.run_id = t.run_id AND h.group_id = t.group_id
WHERE t.trust = t.best
