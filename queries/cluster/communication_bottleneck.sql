-- title: Communication bottlenecks (msprof-analyze communication_bottleneck)
-- description: For every collective operator instance seen on two or more ranks (same
--     name and group in COMMUNICATION_OP), the rank that started it first (and waited
--     longest) and the rank that started it last (the one the others waited for), the
--     wait between them, and what the slow rank's device did meanwhile: kernel time in
--     the wait window. reason is 'slow rank computing' when that kernel time covers at
--     least half the wait, else 'slow rank idle (host or launch bound)'.
-- param min_wait_ns (integer, default 0): Leave out instances whose wait is shorter.
-- param limit (integer, default 50): How many instances to return, longest wait first.
-- column name: Operator name (one instance).
-- column group_name: Communication group.
-- column start_ns: Earliest start over the ranks, in ns.
-- column end_ns: Latest end over the ranks, in ns.
-- column duration_ns: end_ns - start_ns.
-- column fast_rank_id: Rank that started first.
-- column slow_rank_id: Rank that started last.
-- column wait_ns: Latest start - earliest start, in ns.
-- column slow_rank_kernel_ns: Kernel time of the slow rank inside the wait window, in ns (capped at wait_ns).
-- column reason: slow rank computing, or slow rank idle (host or launch bound).
with ops as (
    select rank_id, group_name, name, ts, ts + dur as end_ns
    from communication_op
),

ordered as (
    select
        rank_id, group_name, name, ts, end_ns,
        count(*) over (partition by group_name, name) as ranks,
        row_number() over (partition by group_name, name order by ts, rank_id) as first_order,
        row_number() over (partition by group_name, name order by ts desc, rank_id) as last_order
    from ops
),

instances as (
    select
        group_name,
        name,
        min(ts) as start_ns,
        max(end_ns) as end_ns,
        max(case when first_order = 1 then rank_id end) as fast_rank_id,
        max(case when last_order = 1 then rank_id end) as slow_rank_id,
        max(ts) - min(ts) as wait_ns
    from ordered
    where ranks > 1
    group by group_name, name
    having max(ts) - min(ts) >= :min_wait_ns
),

reach as (
    -- the longest kernel of each rank bounds the (rank_id, ts) index search of the wait windows
    select rank_id, max(dur) as max_dur from kernel group by rank_id
),

windows as materialized (
    select i.group_name, i.name, i.slow_rank_id, i.start_ns, i.start_ns + i.wait_ns as stop_ns,
        i.start_ns - r.max_dur as search_from
    from instances as i
    join reach as r on r.rank_id = i.slow_rank_id
),

busy as (
    select
        w.group_name,
        w.name,
        sum(
            case when k.ts + k.dur < w.stop_ns then k.ts + k.dur else w.stop_ns end
            - case when k.ts > w.start_ns then k.ts else w.start_ns end
        ) as kernel_ns
    from windows as w
    join kernel as k on k.rank_id = w.slow_rank_id and k.ts >= w.search_from and k.ts < w.stop_ns
    where k.ts + k.dur > w.start_ns
    group by w.group_name, w.name
),

final as (
    select
        i.name,
        i.group_name,
        i.start_ns,
        i.end_ns,
        i.end_ns - i.start_ns as duration_ns,
        i.fast_rank_id,
        i.slow_rank_id,
        i.wait_ns,
        case when coalesce(b.kernel_ns, 0) > i.wait_ns then i.wait_ns else coalesce(b.kernel_ns, 0) end
            as slow_rank_kernel_ns
    from instances as i
    left join busy as b on b.group_name = i.group_name and b.name = i.name
)

select
    name, group_name, start_ns, end_ns, duration_ns, fast_rank_id, slow_rank_id, wait_ns, slow_rank_kernel_ns,
    case when 2 * slow_rank_kernel_ns >= wait_ns and wait_ns > 0 then 'slow rank computing'
        else 'slow rank idle (host or launch bound)' end as reason
from final
order by wait_ns desc, start_ns, name
limit :limit
