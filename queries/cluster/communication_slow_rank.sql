-- title: Slow ranks of collectives (msprof-analyze slow_rank)
-- description: For every collective operator instance seen on two or more ranks of a run
--     (same name and group among the HCCL operators, hccl_operator_group: COMMUNICATION_OP of a
--     rank db, or the HCCL rows of kernel_details.csv, else the rank's communication summary; the
--     group the operator names, else the rank's stated parallel group that fits it, DP first),
--     the rank that started it last made the others wait. Per run and rank: how many instances it
--     was last to start by more than min_gap_ns, and by how much in total and at most (against
--     the earliest rank).
-- param run_id (integer, default null): Only this run; every run when null.
-- param min_gap_ns (integer, default 0): Lateness under which a last start does not count.
-- column run_id: Run.
-- column rank_id: Rank.
-- column ops: Number of multi-rank operator instances the rank took part in.
-- column slow_affect_count: Instances the rank started last by more than min_gap_ns.
-- column total_delay_ns: Summed lateness of those starts against the earliest rank, in ns.
-- column max_delay_ns: Largest such lateness in ns.
with ops as (
    select run_id, rank_id, instance_group as group_key, name, ts
    from hccl_operator_group
    where :run_id is null or run_id = :run_id
),

instances as (
    select
        run_id, rank_id, group_key, name, ts,
        count(*) over (partition by run_id, group_key, name) as ranks,
        min(ts) over (partition by run_id, group_key, name) as first_ts,
        row_number() over (partition by run_id, group_key, name order by ts desc, rank_id) as lateness_order
    from ops
),

late as (
    select run_id, rank_id, ts - first_ts as delay_ns
    from instances
    where ranks > 1 and lateness_order = 1 and ts - first_ts > :min_gap_ns
),

participation as (
    select run_id, rank_id, count(*) as ops
    from instances
    where ranks > 1
    group by run_id, rank_id
),

final as (
    select
        p.run_id,
        p.rank_id,
        p.ops,
        count(l.rank_id) as slow_affect_count,
        coalesce(sum(l.delay_ns), 0) as total_delay_ns,
        max(l.delay_ns) as max_delay_ns
    from participation as p
    left join late as l on l.run_id = p.run_id and l.rank_id = p.rank_id
    group by p.run_id, p.rank_id, p.ops
)

select run_id, rank_id, ops, slow_affect_count, total_delay_ns, max_delay_ns
from final
order by run_id, slow_affect_count desc, total_delay_ns desc, rank_id
