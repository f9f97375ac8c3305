-- description: Each run's cluster shape, one row per run: whether the run says it and the sizes
--     of its data-, tensor-, pipeline-, context- and expert-parallel groups. The sizes come from
--     the parallel groups the run names (rank_group: the largest group of each kind), else
--     from its profiler_metadata.json distributed_args or MindSpore's profiler_info (parallel_size). A run
--     that names a group of a kind, or whose distributed_args or profiler_info give the pipeline size, knows
--     its shape; in one that names groups but no pipeline group the pipeline size is 1. Where nothing says
--     the shape, note says so and the cross-rank rules compare every rank with every other.
-- column run_id: Run.
-- column shape_known: 1 when the run says its parallel groups or its pipeline size, else 0.
-- column groups_known: 1 when the run names parallel groups of a kind (rank_group), else 0.
-- column ranks: Number of known ranks (rank_id >= 0) with an input.
-- column world_size: Number of ranks of the cluster (distributed_args world_size, else the
--     larger of the largest group the run names and ranks).
-- column dp_size: Data-parallel size, when known.
-- column tp_size: Tensor-parallel size, when known.
-- column pp_size: Pipeline-parallel size (the number of stages), when known.
-- column cp_size: Context-parallel size, when known.
-- column ep_size: Expert-parallel size, when known.
-- column said_by: What says the shape: parallel_group_info, communication_group, cluster_analysis_db,
--     distributed_args, mindspore_profiler_info or nothing.
-- column note: What the shape is read from, for a person.
WITH group_sizes AS (
    SELECT
        run_id,
        max(CASE WHEN kind = 'DP' THEN group_size END) AS dp_size,
        max(CASE WHEN kind = 'TP' THEN group_size END) AS tp_size,
        max(CASE WHEN kind = 'PP' THEN group_size END) AS pp_size,
        max(CASE WHEN kind = 'CP' THEN group_size END) AS cp_size,
        max(CASE WHEN kind = 'EP' THEN group_size END) AS ep_size,
        max(group_size) AS largest_group,
        count(kind) AS kind_groups,
        -- the most trusted input's (its trust is one digit)
        substr(min(CASE WHEN kind IS NOT NULL THEN CAST(trust AS TEXT) || said_by END), 2) AS said_by
    FROM rank_group
    GROUP BY run_id
),
args AS (
    SELECT
        run_id, max(dp_size) AS dp_size, max(tp_size) AS tp_size, max(pp_size) AS pp_size, max(cp_size) AS cp_size,
        max(ep_size) AS ep_size, max(world_size) AS world_size,
        -- the sizes Megatron's arguments state before MindSpore's profiler_info's
        min(said_by) AS said_by
    FROM parallel_size
    GROUP BY run_id
),
known_ranks AS (
    SELECT run_id, count(*) AS ranks FROM rank WHERE rank_id >= 0 GROUP BY run_id
),
shapes AS (
    SELECT
        u.run_id,
        CASE WHEN coalesce(g.kind_groups, 0) > 0 THEN 1 ELSE 0 END AS groups_known,
        coalesce(k.ranks, 0) AS ranks,
        -- an integer on every engine (an input view with no rows is typed as reals)
        CAST(coalesce(
            a.world_size,
            CASE WHEN g.largest_group >= coalesce(k.ranks, 0) THEN g.largest_group ELSE k.ranks END
        ) AS BIGINT) AS world_size,
        coalesce(g.dp_size, a.dp_size) AS dp_size,
        coalesce(g.tp_size, a.tp_size) AS tp_size,
        coalesce(g.pp_size, a.pp_size, CASE WHEN g.kind_groups > 0 THEN 1 END) AS pp_size,
        coalesce(g.cp_size, a.cp_size) AS cp_size,
        coalesce(g.ep_size, a.ep_size) AS ep_size,
        coalesce(g.said_by, CASE WHEN a.pp_size IS NOT NULL THEN a.said_by END) AS said_by
    FROM run AS u
    LEFT JOIN group_sizes AS g ON g.run_id = u.run_id AND g.kind_groups > 0
    LEFT JOIN args AS a ON a.run_id = u.run_id
    LEFT JOIN known_ranks AS k ON k.run_id = u.run_id
)
SELECT
    run_id,
    CASE WHEN said_by IS NOT NULL THEN 1 ELSE 0 END AS shape_known,
    groups_known, ranks, world_size, dp_size, tp_size, pp_size, cp_size, ep_size,
    -- never NULL: a column no run fills would be typed apart by the engines
    coalesce(said_by, 'nothing') AS said_by,
    CASE said_by
        WHEN 'parallel_group_info' THEN 'the parallel groups of profiler_metadata.json (parallel_group_info)'
        WHEN 'communication_group' THEN 'the parallel groups of communication_group.json (comm_group_parallel_info)'
        WHEN 'cluster_analysis_db' THEN 'the parallel groups of cluster_analysis.db (CommunicationGroupMapping)'
        WHEN 'distributed_args' THEN 'the sizes of profiler_metadata.json (distributed_args), in Megatron''s rank order'
        WHEN 'mindspore_profiler_info'
            THEN 'the rank size and pipeline stages of MindSpore''s profiler_info (rank_size, stage_num)'
        ELSE 'the run does not say its parallel groups'
    END AS note
FROM shapes
