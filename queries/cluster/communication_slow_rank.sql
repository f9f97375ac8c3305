-- title: Slow ranks of collectives (msprof-analyze slow_rank)
-- description: For every collective operator instance seen on two or more ranks (same
--     name and group in COMMUNICATION_OP), the rank that started it last made the others
--     wait. Per rank: how many instances it was last to start by more than min_gap_ns,
--     and by how much in total and at most (against the earliest rank).
-- param min_gap_ns (integer, default 0): Lateness under which a last start does not count.
-- column rank_id: Rank.
-- column ops: Number of multi-rank operator instances the rank took part in.
-- column slow_affect_count: Instances the rank started last by more than min_gap_ns.
-- column total_delay_ns: Summed lateness of those starts against the earliest rank, in ns.
-- column max_delay_ns: Largest such lateness in ns.
with ops as (
    select rank_id, group_name, name, ts
    from communication_op
),

instances as (
    select
        rank_id, group_name, name, ts,
        count(*) over (partition by group_name, name) as ranks,
        min(ts) over (partition by group_name, name) as first_ts,
        row_number() over (partition by group_name, name order by ts desc, rank_id) as lateness_order
    from ops
),

late as (
    select rank_id, ts - first_ts as delay_ns
    from instances
    where ranks > 1 and lateness_order = 1 and ts - first_ts > :min_gap_ns
),

participation as (
    select rank_id, count(*) as ops
    from instances
    where ranks > 1
    group by rank_id
),

final as (
    select
        p.rank_id,
        p.ops,
        count(l.rank_id) as slow_affect_count,
        coalesce(sum(l.delay_ns), 0) as total_delay_ns,
        max(l.delay_ns) as max_delay_ns
    from participation as p
    left join late as l on l.rank_id = p.rank_id
    group by p.rank_id, p.ops
)

select rank_id, ops, slow_affect_count, total_delay_ns, max_delay_ns
from final
order by slow_affect_count desc, total_delay_ns desc, rank_id
