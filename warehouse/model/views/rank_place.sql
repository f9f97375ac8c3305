-- description: Each rank's place in its run's cluster, one row per (run, rank) that an input or
--     a parallel group names (rank_id >= 0): its pipeline stage and its index in its data- and
--     tensor-parallel groups (rank_group). Where the run names no such
--     group but its distributed_args give the sizes (profiler_metadata.json), the place follows
--     Megatron's default rank order (tensor fastest, then context, data, pipeline outermost):
--     stage = rank / (world_size / pipeline size), data-parallel index = rank / (tp x cp) mod dp.
--     The cross-rank rules compare a rank only with the ranks of its stage (peer_key).
-- column run_id: Run.
-- column rank_id: Global rank.
-- column shape_known: 1 when the run says its parallel groups or sizes (run_shape), else 0.
-- column stage_id: The rank's pipeline stage (its index in its PP group; 0 in a run without
--     pipeline parallelism); NULL when the shape is unknown or does not place the rank.
-- column dp_index: The rank's index in its data-parallel group, when known.
-- column tp_index: The rank's index in its tensor-parallel group, when known.
-- column dp_ranks: The global ranks of its data-parallel group (JSON array), when known.
-- column pp_ranks: The global ranks of its pipeline-parallel group (JSON array), when known.
-- column peer_key: The set the cross-rank rules compare the rank within: 'stage N', 'unplaced'
--     (the shape is known but does not place the rank) or 'every rank' (the shape is unknown).
-- column said_by: What says the place: parallel_group_info, communication_group, cluster_analysis_db,
--     distributed_args, mindspore_profiler_info or nothing.
WITH ranks AS (
    SELECT run_id, rank_id FROM rank WHERE rank_id >= 0
    UNION
    SELECT run_id, rank_id FROM rank_group WHERE rank_id >= 0
),
groups AS (
    SELECT
        run_id, rank_id,
        min(CASE WHEN kind = 'PP' THEN group_index END) AS pp_index,
        min(CASE WHEN kind = 'DP' THEN group_index END) AS dp_index,
        min(CASE WHEN kind = 'TP' THEN group_index END) AS tp_index,
        min(CASE WHEN kind = 'DP' THEN global_ranks END) AS dp_ranks,
        min(CASE WHEN kind = 'PP' THEN global_ranks END) AS pp_ranks,
        -- the most trusted input's (its trust is one digit)
        substr(min(CAST(trust AS TEXT) || said_by), 2) AS said_by
    FROM rank_group
    WHERE kind IS NOT NULL
    GROUP BY run_id, rank_id
),
placed AS (
    SELECT
        r.run_id, r.rank_id, s.shape_known, s.said_by AS run_said_by, g.said_by,
        g.pp_index, g.dp_index, g.tp_index, g.dp_ranks, g.pp_ranks,
        s.pp_size, s.dp_size, s.tp_size, s.cp_size, s.world_size
    FROM ranks AS r
    JOIN run_shape AS s ON s.run_id = r.run_id
    LEFT JOIN groups AS g ON g.run_id = r.run_id AND g.rank_id = r.rank_id
),
located AS (
    SELECT
        run_id, rank_id, shape_known, dp_ranks, pp_ranks, tp_index,
        CASE
            WHEN pp_index IS NOT NULL THEN pp_index
            WHEN pp_size = 1 THEN 0
            WHEN world_size > 0 AND pp_size > 0 AND world_size % pp_size = 0
                THEN CAST(rank_id / (world_size / pp_size) AS INTEGER)
        END AS stage_id,
        coalesce(
            dp_index,
            CASE WHEN dp_size > 0 THEN CAST(rank_id / (coalesce(tp_size, 1) * coalesce(cp_size, 1)) AS INTEGER) % dp_size END
        ) AS dp_index,
        coalesce(said_by, CASE WHEN shape_known = 1 THEN run_said_by END) AS said_by
    FROM placed
)
SELECT
    -- an integer on every engine (Spark typed the union of the rank and group ranks as a double)
    run_id, CAST(rank_id AS BIGINT) AS rank_id, shape_known, stage_id, dp_index, tp_index, dp_ranks, pp_ranks,
    CASE
        WHEN shape_known = 0 THEN 'every rank'
        WHEN stage_id IS NULL THEN 'unplaced'
        ELSE 'stage ' || stage_id
    END AS peer_key,
    -- never NULL: a column no rank fills would be typed apart by the engines
    coalesce(said_by, 'nothing') AS said_by
FROM located
