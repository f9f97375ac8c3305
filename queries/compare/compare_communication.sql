-- title: Compare communication of two runs
-- description: The collectives of two runs side by side (issue 17), per collective type and
--     communication group, per rank and over all ranks (scope overall). Ranks are paired by their
--     place in the cluster where both runs state their shape, else by rank id, two one-rank runs by
--     being each one's only rank (paired_by, queries/compare/_rank_pair.sql). A group
--     is matched by its ranks (the ranks whose operators name it, in the run, each taken as the
--     rank it pairs with), not by its name: HCCL
--     names a group after its host, port and creation time, the communication summary by a hash, a
--     text export's kernels not at all, so two captures of one model never share a name; two groups
--     of the same ranks (dp and dp_cp when cp is 1) are one. From
--     the rank's HCCL operators whichever export holds them (hccl_operator): count and mean time
--     per operator; from the profiler's communication summary that answers for the rank
--     (communication_time_answer, communication_bandwidth_answer; 'Total Op Info' rows left out):
--     mean elapse, transit, wait and synchronisation time per operator, and the bandwidth (bytes
--     moved over their transit time). Means per operator, so runs of different lengths compare.
--     The type is the operator type as the input states it, else the name less its instance suffix
--     (hcom_allReduce__868_0_1: hcom_allReduce_), as communication_ops names it. One row per metric;
--     the largest change first (change factor, max(run/base, base/run); a metric that is 0 or missing
--     on one side only comes before every factor).
--     run_id null: the run that started last; base_run_id null: the run that started just before
--     run_id (runs in start order, a run whose start is unknown first, by id).
-- param run_id (integer, default null): The run compared (the new one); the run that started last when null.
-- param base_run_id (integer, default null): The baseline run; the run that started just before run_id when null.
-- column run_id: The run compared.
-- column base_run_id: The baseline run.
-- column op_type: Collective type, e.g. hcom_allReduce_.
-- column group_ranks: The group's ranks in the run (in the baseline when the run has no such group),
--     e.g. 0,1: what matches a group of the baseline with one of the run, through the rank pairs.
-- column base_group_ranks: The group's ranks in the baseline, when they differ from group_ranks
--     (the runs number the paired ranks otherwise); null otherwise.
-- column base_group_name: The group's name in the baseline (the first by name when the metric's
--     input names several; null when it names none).
-- column run_group_name: The group's name in the run, likewise.
-- column scope: overall (every rank of the run) or rank.
-- column rank_id: The run's rank (the baseline's when the run has none at its place); null for scope overall.
-- column base_rank_id: The baseline's rank paired with it, when its id differs from rank_id; null otherwise.
-- column paired_by: How the rank's pair was made: place, rank id or only rank; null for scope overall.
-- column metric: count, mean_time_ns (hccl_operator); mean_elapse_ns, mean_transit_ns, mean_wait_ns, mean_synchronization_ns, bandwidth_bytes_per_s (the communication summary).
-- column base_value: The metric in the baseline (null when it has none).
-- column run_value: The metric in the run (null when it has none).
-- column difference: run_value - base_value.
-- column ratio: run_value / base_value; null when base_value is 0 or missing.
with pair as (
    -- the run (default: the latest) and its baseline (default: the run before it)
    select h.run_id, coalesce(:base_run_id, h.previous_run_id) as base_run_id
    from run_history as h
    where h.run_id = coalesce(:run_id, (select max(run_id) from run_history where position = (select max(position) from run_history)))
),
operators as (
    select
        c.run_id,
        c.rank_id,
        c.type_name as op_type,
        c.group_name,
        c.dur
    from hccl_operator as c
    join pair as p on c.run_id = p.run_id or c.run_id = p.base_run_id
),

times as (
    select
        t.run_id,
        t.rank_id,
        t.op_type,
        t.group_name,
        t.elapse_ns,
        t.transit_ns,
        t.wait_ns,
        t.synchronization_ns
    from communication_time_answer as t
    join pair as p on t.run_id = p.run_id or t.run_id = p.base_run_id
    where t.op_name <> 'Total Op Info'
),

bandwidths as (
    select
        b.run_id,
        b.rank_id,
        b.op_type,
        b.group_name,
        b.transit_bytes,
        b.transit_ns
    from communication_bandwidth_answer as b
    join pair as p on b.run_id = p.run_id or b.run_id = p.base_run_id
    where b.op_name <> 'Total Op Info'
),

named as (
    select run_id, group_name, rank_id from operators
    union
    select run_id, group_name, rank_id from times
    union
    select run_id, group_name, rank_id from bandwidths
),

compared_ranks as (
    select run_id, rank_id from named
),

-- include: _rank_pair
,

paired_named as (
    select
        n.run_id, n.group_name, q.base_rank_id, q.run_rank_id,
        -- the rank as the pair it is in (the baseline's id), else as the run's rank of no pair
        coalesce(cast(q.base_rank_id as text), 'run ' || cast(q.run_rank_id as text)) as pair_rank
    from named as n
    join rank_pair as q on q.run_id = n.run_id and (q.rank_id = n.rank_id or (q.rank_id is null and n.rank_id is null))
),

ordered_members as (
    select run_id, group_name, rank_id
    from named
    order by run_id, group_name, rank_id
),

ordered_pair_members as (
    select run_id, group_name, base_rank_id, run_rank_id, pair_rank
    from paired_named
    order by run_id, group_name, base_rank_id, run_rank_id
),

group_pair_lists as (
    select run_id, group_name, group_concat(pair_rank, ',') as pair_ranks
    from ordered_pair_members
    group by run_id, group_name
),

group_rank_lists as (
    select run_id, group_name, group_concat(rank_id, ',') as group_ranks
    from ordered_members
    group by run_id, group_name
),

group_pairs as (
    -- each group's ranks in its run, and as the rank pairs they are in: what tells it apart across runs
    select distinct o.run_id, o.group_ranks, g.pair_ranks
    from group_rank_lists as o
    join group_pair_lists as g
        on g.run_id = o.run_id
        and (g.group_name = o.group_name or (g.group_name is null and o.group_name is null))
),

grouped_operators as (
    select o.run_id, o.rank_id, o.op_type, o.group_name, o.dur, m.group_ranks
    from operators as o
    join group_rank_lists as m
        on m.run_id = o.run_id
        and (m.group_name = o.group_name or (m.group_name is null and o.group_name is null))
),

grouped_times as (
    select
        t.run_id, t.rank_id, t.op_type, t.group_name, t.elapse_ns, t.transit_ns, t.wait_ns, t.synchronization_ns,
        m.group_ranks
    from times as t
    join group_rank_lists as m
        on m.run_id = t.run_id
        and (m.group_name = t.group_name or (m.group_name is null and t.group_name is null))
),

grouped_bandwidths as (
    select b.run_id, b.rank_id, b.op_type, b.group_name, b.transit_bytes, b.transit_ns, m.group_ranks
    from bandwidths as b
    join group_rank_lists as m
        on m.run_id = b.run_id
        and (m.group_name = b.group_name or (m.group_name is null and b.group_name is null))
),

per_rank as (
    select
        run_id, op_type, group_ranks, min(group_name) as group_name, 'rank' as scope, rank_id,
        'count' as metric, 1.0 * count(*) as value
    from grouped_operators
    group by run_id, op_type, group_ranks, rank_id
    union all
    select
        run_id, op_type, group_ranks, min(group_name) as group_name, 'overall' as scope, null as rank_id,
        'count' as metric, 1.0 * count(*) as value
    from grouped_operators
    group by run_id, op_type, group_ranks
    union all
    select
        run_id, op_type, group_ranks, min(group_name) as group_name, 'rank' as scope, rank_id,
        'mean_time_ns' as metric, avg(dur) as value
    from grouped_operators
    group by run_id, op_type, group_ranks, rank_id
    union all
    select
        run_id, op_type, group_ranks, min(group_name) as group_name, 'overall' as scope, null as rank_id,
        'mean_time_ns' as metric, avg(dur) as value
    from grouped_operators
    group by run_id, op_type, group_ranks
    union all
    select
        run_id, op_type, group_ranks, min(group_name) as group_name, 'rank' as scope, rank_id,
        'mean_elapse_ns' as metric, avg(elapse_ns) as value
    from grouped_times
    group by run_id, op_type, group_ranks, rank_id
    union all
    select
        run_id, op_type, group_ranks, min(group_name) as group_name, 'overall' as scope, null as rank_id,
        'mean_elapse_ns' as metric, avg(elapse_ns) as value
    from grouped_times
    group by run_id, op_type, group_ranks
    union all
    select
        run_id, op_type, group_ranks, min(group_name) as group_name, 'rank' as scope, rank_id,
        'mean_transit_ns' as metric, avg(transit_ns) as value
    from grouped_times
    group by run_id, op_type, group_ranks, rank_id
    union all
    select
        run_id, op_type, group_ranks, min(group_name) as group_name, 'overall' as scope, null as rank_id,
        'mean_transit_ns' as metric, avg(transit_ns) as value
    from grouped_times
    group by run_id, op_type, group_ranks
    union all
    select
        run_id, op_type, group_ranks, min(group_name) as group_name, 'rank' as scope, rank_id,
        'mean_wait_ns' as metric, avg(wait_ns) as value
    from grouped_times
    group by run_id, op_type, group_ranks, rank_id
    union all
    select
        run_id, op_type, group_ranks, min(group_name) as group_name, 'overall' as scope, null as rank_id,
        'mean_wait_ns' as metric, avg(wait_ns) as value
    from grouped_times
    group by run_id, op_type, group_ranks
    union all
    select
        run_id, op_type, group_ranks, min(group_name) as group_name, 'rank' as scope, rank_id,
        'mean_synchronization_ns' as metric, avg(synchronization_ns) as value
    from grouped_times
    group by run_id, op_type, group_ranks, rank_id
    union all
    select
        run_id, op_type, group_ranks, min(group_name) as group_name, 'overall' as scope, null as rank_id,
        'mean_synchronization_ns' as metric, avg(synchronization_ns) as value
    from grouped_times
    group by run_id, op_type, group_ranks
    union all
    select
        run_id, op_type, group_ranks, min(group_name) as group_name, 'rank' as scope, rank_id,
        'bandwidth_bytes_per_s' as metric, 1e9 * sum(transit_bytes) / nullif(sum(transit_ns), 0) as value
    from grouped_bandwidths
    group by run_id, op_type, group_ranks, rank_id
    union all
    select
        run_id, op_type, group_ranks, min(group_name) as group_name, 'overall' as scope, null as rank_id,
        'bandwidth_bytes_per_s' as metric, 1e9 * sum(transit_bytes) / nullif(sum(transit_ns), 0) as value
    from grouped_bandwidths
    group by run_id, op_type, group_ranks
),

paired_per_rank as (
    -- each figure keyed by its group as the rank pairs it holds, and by its rank's pair
    select
        v.run_id, v.op_type, v.group_ranks, g.pair_ranks, v.group_name, v.scope, q.base_rank_id, q.run_rank_id,
        q.paired_by, v.metric, v.value
    from per_rank as v
    join group_pairs as g
        on g.run_id = v.run_id
        and (g.group_ranks = v.group_ranks or (g.group_ranks is null and v.group_ranks is null))
    left join rank_pair as q
        on v.scope = 'rank' and q.run_id = v.run_id
        and (q.rank_id = v.rank_id or (q.rank_id is null and v.rank_id is null))
),

keys as (
    select distinct op_type, pair_ranks, scope, base_rank_id, run_rank_id, paired_by, metric
    from paired_per_rank
),

joined as (
    select
        p.run_id,
        p.base_run_id,
        k.op_type,
        coalesce(r.group_ranks, b.group_ranks) as group_ranks,
        case when b.group_ranks <> r.group_ranks then b.group_ranks end as base_group_ranks,
        b.group_name as base_group_name,
        r.group_name as run_group_name,
        k.scope,
        coalesce(k.run_rank_id, k.base_rank_id) as rank_id,
        case when k.base_rank_id <> k.run_rank_id then k.base_rank_id end as base_rank_id,
        k.paired_by,
        k.metric,
        b.value as base_value,
        r.value as run_value
    from pair as p
    cross join keys as k
    left join paired_per_rank as b
        on b.run_id = p.base_run_id and b.metric = k.metric and b.scope = k.scope and b.op_type = k.op_type
        and b.pair_ranks = k.pair_ranks
        and (b.base_rank_id = k.base_rank_id or (b.base_rank_id is null and k.base_rank_id is null))
        and (b.run_rank_id = k.run_rank_id or (b.run_rank_id is null and k.run_rank_id is null))
    left join paired_per_rank as r
        on r.run_id = p.run_id and r.metric = k.metric and r.scope = k.scope and r.op_type = k.op_type
        and r.pair_ranks = k.pair_ranks
        and (r.base_rank_id = k.base_rank_id or (r.base_rank_id is null and k.base_rank_id is null))
        and (r.run_rank_id = k.run_rank_id or (r.run_rank_id is null and k.run_rank_id is null))
),

final as (
    select
        run_id, base_run_id, op_type, group_ranks, base_group_ranks, base_group_name, run_group_name, scope,
        rank_id, base_rank_id, paired_by, metric, base_value, run_value,
        run_value - base_value as difference,
        run_value / nullif(base_value, 0) as ratio,
        case
            when coalesce(base_value, 0) = coalesce(run_value, 0) then 1.0
            when coalesce(base_value, 0) <= 0 or coalesce(run_value, 0) <= 0 then null
            when run_value >= base_value then run_value / base_value
            else base_value / run_value
        end as change
    from joined
)

select
    run_id, base_run_id, op_type, group_ranks, base_group_ranks, base_group_name, run_group_name, scope, rank_id,
    base_rank_id, paired_by, metric, base_value, run_value, difference, ratio
from final
order by
    case when change is null then 0 else 1 end, change desc, abs(coalesce(run_value, 0) - coalesce(base_value, 0)) desc,
    op_type, group_ranks, case when scope = 'overall' then 0 else 1 end, rank_id, metric
