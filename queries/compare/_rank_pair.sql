-- Helper (included by the compare queries, not a query itself): how the ranks of the two
-- compared runs pair, the one definition every compare query reads. It reads the CTE pair
-- (run_id, base_run_id) and a CTE compared_ranks (run_id, rank_id: the ranks the including
-- query has figures of) written before the include line. How the ranks pair (paired_by):
--   'place' where both runs state their shape (run_shape) and place each of their ranks
--   (rank_place: the pipeline stage, data-parallel and tensor-parallel index; one rank per
--   place): a rank pairs with the other run's rank at the same place, whatever their ids;
--   'only rank' where each run has one rank (a kineto trace's rank -1 with another's rank 0);
--   'rank id' otherwise: a rank pairs with the other run's rank of the same id.
-- It defines rank_keys, one row per rank and side (base, run) with paired_by and what decides
-- it (base_/run_ranks: the ranks the runs' inputs belong to, rank view, -1 included;
-- base_/run_shape_known), and rank_pair, one row per rank of either run (of rank or
-- compared_ranks; a NULL rank too, records without a rank, which pair with each other):
-- run_id, rank_id, and the pair it is in: base_rank_id (the baseline's rank, null when the
-- baseline has none there), run_rank_id (the run's, likewise), paired_by. A query keys its
-- per-rank figures by (base_rank_id, run_rank_id). A rank the place rule does not place is in
-- no pair. A run compared with itself pairs each rank with itself. Each step reads only the
-- one before it (windows, no self-join): a query that reads rank_pair once expands the views
-- under it (rank_place, rank) once, which keeps its planning short.
rank_sides as (
    select s.side, k.run_id, k.rank_id, max(k.ingested) as ingested
    from (
        select run_id, rank_id, 1 as ingested from rank
        union all
        select run_id, rank_id, 0 as ingested from compared_ranks
    ) as k
    cross join pair as p
    cross join (select 'base' as side union all select 'run' as side) as s
    where (s.side = 'base' and k.run_id = p.base_run_id) or (s.side = 'run' and k.run_id = p.run_id)
    group by s.side, k.run_id, k.rank_id
),

rank_places as (
    -- a rank's place where its run states its shape, and how many of the run's ranks it holds
    select
        s.side, s.run_id, s.rank_id, s.ingested, coalesce(l.shape_known, 0) as shape_known,
        l.stage_id, l.dp_index, l.tp_index,
        sum(s.ingested) over (partition by s.side, l.stage_id, l.dp_index, l.tp_index) as at_place
    from rank_sides as s
    left join rank_place as l on l.run_id = s.run_id and l.rank_id = s.rank_id and l.shape_known = 1
),

side_places as (
    select
        side, run_id, rank_id, ingested, stage_id, dp_index, tp_index, at_place,
        sum(case when rank_id is not null then ingested else 0 end) over (partition by side) as side_ranks,
        max(shape_known) over (partition by side) as side_shape_known,
        sum(case when rank_id is not null and ingested = 1 and (stage_id is null or at_place > 1) then 1 else 0 end)
            over (partition by side) as side_unplaced
    from rank_places
),

pair_places as (
    select
        side, run_id, rank_id, ingested, stage_id, dp_index, tp_index, at_place,
        coalesce(max(case when side = 'base' then side_ranks end) over (), 0) as base_ranks,
        coalesce(max(case when side = 'run' then side_ranks end) over (), 0) as run_ranks,
        coalesce(max(case when side = 'base' then side_shape_known end) over (), 0) as base_shape_known,
        coalesce(max(case when side = 'run' then side_shape_known end) over (), 0) as run_shape_known,
        coalesce(max(case when side = 'base' then side_unplaced end) over (), 0) as base_unplaced,
        coalesce(max(case when side = 'run' then side_unplaced end) over (), 0) as run_unplaced
    from side_places
),

rank_keys as (
    -- what a rank pairs on: its place, being its run's only rank, or its id (a rank the place
    -- rule does not place keys on itself: no pair)
    select
        side, run_id, rank_id, paired_by, base_ranks, run_ranks, base_shape_known, run_shape_known,
        case
            when rank_id is null then 'no rank'
            when paired_by = 'place' and stage_id is not null and at_place <= 1 then 'place'
            when paired_by = 'place' then 'alone on the ' || side
            when paired_by = 'only rank' and ingested = 1 then 'only rank'
            else 'rank id'
        end as key_kind,
        case when paired_by = 'place' and stage_id is not null and at_place <= 1 then stage_id
            when paired_by = 'only rank' and ingested = 1 then null
            else rank_id end as key_stage_or_rank,
        case when paired_by = 'place' then dp_index end as key_dp,
        case when paired_by = 'place' then tp_index end as key_tp
    from (
        select
            side, run_id, rank_id, ingested, stage_id, dp_index, tp_index, at_place, base_ranks, run_ranks,
            base_shape_known, run_shape_known, base_unplaced, run_unplaced,
            case
                when base_ranks > 0 and run_ranks > 0 and base_unplaced = 0 and run_unplaced = 0 then 'place'
                when base_ranks = 1 and run_ranks = 1 then 'only rank'
                else 'rank id'
            end as paired_by
        from pair_places
    ) as decided
),

rank_pair as (
    -- the two runs' ranks of one key are a pair (one rank of each at most: places, ids and only
    -- ranks are each run's own); a run compared with itself gives each pair twice, kept once
    select distinct
        run_id, rank_id,
        max(case when side = 'base' then rank_id end)
            over (partition by key_kind, key_stage_or_rank, key_dp, key_tp) as base_rank_id,
        max(case when side = 'run' then rank_id end)
            over (partition by key_kind, key_stage_or_rank, key_dp, key_tp) as run_rank_id,
        case when rank_id is null then 'rank id' else paired_by end as paired_by
    from rank_keys
)
