-- title: Compare communication of two runs
-- description: The collectives of two runs side by side (issue 17), per collective type and
--     communication group, per rank (matched by rank id) and over all ranks (scope overall). A group
--     is matched by its ranks (the ranks whose operators name it, in the run), not by its name: HCCL
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
-- column group_ranks: The group's ranks, e.g. 0,1: what matches a group of the baseline with one of the run.
-- column base_group_name: The group's name in the baseline (the first by name when the metric's
--     input names several; null when it names none).
-- column run_group_name: The group's name in the run, likewise.
-- column scope: overall (every rank of the run) or rank.
-- column rank_id: Rank (matched by id); null for scope overall.
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

ordered_members as (
    select run_id, group_name, rank_id
    from named
    order by run_id, group_name, rank_id
),

members as (
    -- each group's ranks in its run: what tells it apart across runs
    select run_id, group_name, group_concat(rank_id, ',') as group_ranks
    from ordered_members
    group by run_id, group_name
),

grouped_operators as (
    select o.run_id, o.rank_id, o.op_type, o.group_name, o.dur, m.group_ranks
    from operators as o
    join members as m
        on m.run_id = o.run_id
        and (m.group_name = o.group_name or (m.group_name is null and o.group_name is null))
),

grouped_times as (
    select
        t.run_id, t.rank_id, t.op_type, t.group_name, t.elapse_ns, t.transit_ns, t.wait_ns, t.synchronization_ns,
        m.group_ranks
    from times as t
    join members as m
        on m.run_id = t.run_id
        and (m.group_name = t.group_name or (m.group_name is null and t.group_name is null))
),

grouped_bandwidths as (
    select b.run_id, b.rank_id, b.op_type, b.group_name, b.transit_bytes, b.transit_ns, m.group_ranks
    from bandwidths as b
    join members as m
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

keys as (
    select distinct op_type, group_ranks, scope, rank_id, metric
    from per_rank
),

joined as (
    select
        p.run_id,
        p.base_run_id,
        k.op_type,
        k.group_ranks,
        b.group_name as base_group_name,
        r.group_name as run_group_name,
        k.scope,
        k.rank_id,
        k.metric,
        b.value as base_value,
        r.value as run_value
    from pair as p
    cross join keys as k
    left join per_rank as b
        on b.run_id = p.base_run_id and b.metric = k.metric and b.scope = k.scope and b.op_type = k.op_type
        and b.group_ranks = k.group_ranks
        and (b.rank_id = k.rank_id or (b.rank_id is null and k.rank_id is null))
    left join per_rank as r
        on r.run_id = p.run_id and r.metric = k.metric and r.scope = k.scope and r.op_type = k.op_type
        and r.group_ranks = k.group_ranks
        and (r.rank_id = k.rank_id or (r.rank_id is null and k.rank_id is null))
),

final as (
    select
        run_id, base_run_id, op_type, group_ranks, base_group_name, run_group_name, scope, rank_id, metric,
        base_value, run_value,
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
    run_id, base_run_id, op_type, group_ranks, base_group_name, run_group_name, scope, rank_id, metric, base_value,
    run_value, difference, ratio
from final
order by
    case when change is null then 0 else 1 end, change desc, abs(coalesce(run_value, 0) - coalesce(base_value, 0)) desc,
    op_type, group_ranks, case when scope = 'overall' then 0 else 1 end, rank_id, metric
