-- Helper (included by the compare queries, not a query itself): how the ranks of the two
-- compared runs pair, the one definition every compare query reads. It reads the CTE pair
-- (run_id, base_run_id) and a CTE compared_ranks (run_id, rank_id: the ranks the including
-- query has figures of) written before the include line, and defines two CTEs:
-- rank_pairing, one row: paired_by, how the two runs' ranks pair, and what decides it per run
-- (base_/run_ ranks: the ranks their inputs belong to, rank view, -1 included; shape_known;
-- unplaced: ranks whose place the run does not give, or gives to another rank too):
--   'place' where both runs state their shape (run_shape) and place each of their ranks
--   (rank_place: the pipeline stage, data-parallel and tensor-parallel index; one rank per
--   place): a rank pairs with the other run's rank at the same place, whatever their ids;
--   'only rank' where each run has one rank (a kineto trace's rank -1 with another's rank 0);
--   'rank id' otherwise: a rank pairs with the other run's rank of the same id.
-- rank_pair, one row per rank of either run (of rank or compared_ranks; a NULL rank too,
-- records without a rank, which pair with each other):
-- run_id, rank_id, and the pair it is in: base_rank_id (the baseline's rank, null when the
-- baseline has none there), run_rank_id (the run's, likewise), paired_by. A query keys its
-- per-rank figures by (base_rank_id, run_rank_id). A rank the place rule does not place is in
-- no pair. When a run is compared with itself each rank pairs with itself.
ranks_of_pair as (
    select k.run_id, k.rank_id, max(k.ingested) as ingested
    from (
        select run_id, rank_id, 1 as ingested from rank
        union all
        select run_id, rank_id, 0 as ingested from compared_ranks
    ) as k
    join pair as p on k.run_id = p.run_id or k.run_id = p.base_run_id
    group by k.run_id, k.rank_id
),

rank_sides as (
    select 'base' as side, r.run_id, r.rank_id, r.ingested
    from ranks_of_pair as r
    join pair as p on r.run_id = p.base_run_id
    union all
    select 'run' as side, r.run_id, r.rank_id, r.ingested
    from ranks_of_pair as r
    join pair as p on r.run_id = p.run_id
),

rank_places as (
    -- a rank's place where its run states its shape; how many ingested ranks it holds
    select
        s.side, s.run_id, s.rank_id, s.ingested, coalesce(l.shape_known, 0) as shape_known,
        l.stage_id, l.dp_index, l.tp_index,
        sum(s.ingested) over (partition by s.side, l.stage_id, l.dp_index, l.tp_index) as at_place
    from rank_sides as s
    left join rank_place as l on l.run_id = s.run_id and l.rank_id = s.rank_id and l.shape_known = 1
),

pairing_sides as (
    select
        side,
        sum(ingested) as ranks,
        max(shape_known) as shape_known,
        sum(case when ingested = 1 and (stage_id is null or at_place > 1) then 1 else 0 end) as unplaced
    from rank_places
    where rank_id is not null
    group by side
),

rank_pairing as (
    select
        case
            when b.ranks > 0 and r.ranks > 0 and b.unplaced = 0 and r.unplaced = 0 then 'place'
            when b.ranks = 1 and r.ranks = 1 then 'only rank'
            else 'rank id'
        end as paired_by,
        coalesce(b.ranks, 0) as base_ranks, coalesce(r.ranks, 0) as run_ranks,
        coalesce(b.shape_known, 0) as base_shape_known, coalesce(r.shape_known, 0) as run_shape_known,
        coalesce(b.unplaced, 0) as base_unplaced, coalesce(r.unplaced, 0) as run_unplaced
    from pair as p
    left join pairing_sides as b on b.side = 'base'
    left join pairing_sides as r on r.side = 'run'
),

rank_keys as (
    -- what a rank pairs on: its place, being its run's only rank, or its id
    select
        s.side, s.run_id, s.rank_id, g.paired_by,
        case
            when s.rank_id is null then 'no rank'
            when g.paired_by = 'place' then case when s.stage_id is not null and s.at_place <= 1 then 'place' end
            when g.paired_by = 'only rank' and s.ingested = 1 then 'only rank'
            else 'rank id'
        end as key_kind,
        case when g.paired_by = 'place' then s.stage_id when s.ingested = 0 or g.paired_by = 'rank id' then s.rank_id end
            as key_stage_or_rank,
        case when g.paired_by = 'place' then s.dp_index end as key_dp,
        case when g.paired_by = 'place' then s.tp_index end as key_tp
    from rank_places as s
    cross join rank_pairing as g
),

rank_pair as (
    -- a run compared with itself: each rank once (both sides give the same pair)
    select distinct
        a.run_id, a.rank_id,
        case when a.side = 'base' then a.rank_id else o.rank_id end as base_rank_id,
        case when a.side = 'run' then a.rank_id else o.rank_id end as run_rank_id,
        case when a.rank_id is null then 'rank id' else a.paired_by end as paired_by
    from rank_keys as a
    left join rank_keys as o
        on o.side <> a.side and o.key_kind = a.key_kind
        and (o.key_stage_or_rank = a.key_stage_or_rank or (o.key_stage_or_rank is null and a.key_stage_or_rank is null))
        and (o.key_dp = a.key_dp or (o.key_dp is null and a.key_dp is null))
        and (o.key_tp = a.key_tp or (o.key_tp is null and a.key_tp is null))
)
