-- title: Communication bottlenecks (msprof-analyze communication_bottleneck)
-- description: For every collective operator instance seen on two or more ranks of a run
--     (same name and group among the HCCL operators, hccl_operator_group: COMMUNICATION_OP of a
--     rank db, or the HCCL rows of kernel_details.csv, else the rank's communication summary; the
--     group the operator names, else the rank's stated parallel group that fits it, DP first),
--     the rank that started it first (and waited longest) and the rank that started it last (the
--     one the others waited for), the wait between them, and what the slow rank's device did
--     meanwhile: time of its answering kernels (kernel_answer) in the wait window. reason is
--     'slow rank computing' when that kernel time covers at least half the wait, else 'slow rank
--     idle (host or launch bound)'; 'slow rank's kernels not recorded' when no input holds them
--     (a rank whose HCCL operators only its communication summary records: what its device did
--     is unknown, not idle).
--     As msprof-analyze's communication_bottleneck, an instance whose durations over the ranks
--     differ by less than slow_npu_ratio of the longest has no slow rank (fast_rank_id and
--     slow_rank_id NULL, reason 'no slow rank: ...'): a few microseconds between two ranks is noise.
-- param run_id (integer, default null): Only this run; every run when null.
-- param min_wait_ns (integer, default 0): Leave out instances whose wait is shorter.
-- param limit (integer, default 50): How many instances to return per run, longest wait first.
-- param slow_npu_ratio (real, default 0.05): (longest - shortest duration) / longest under which no rank is slow (msprof-analyze's slow_npu_happen).
-- column run_id: Run.
-- column name: Operator name (one instance).
-- column group_name: The instance's communication group (hccl_operator_group.instance_group: the
--     operator's, else its stated parallel group; null when nothing says it).
-- column start_ns: Earliest start over the ranks, in ns.
-- column end_ns: Latest end over the ranks, in ns.
-- column duration_ns: end_ns - start_ns.
-- column fast_rank_id: Rank that started first (NULL when no rank is slow).
-- column slow_rank_id: Rank that started last (NULL when no rank is slow).
-- column wait_ns: Latest start - earliest start, in ns.
-- column slow_rank_kernel_ns: Kernel time of the slow rank inside the wait window, in ns (capped at wait_ns; null when its kernels are not recorded).
-- column reason: slow rank computing, slow rank idle (host or launch bound), slow rank's kernels not recorded, or no slow rank (durations within slow_npu_ratio).
with ops as (
    select
        run_id, rank_id, instance_group as group_key, nullif(instance_group, '') as group_name, name, ts,
        ts + dur as end_ns
    from hccl_operator_group
    where :run_id is null or run_id = :run_id
),

ordered as (
    select
        run_id, rank_id, group_key, group_name, name, ts, end_ns,
        count(*) over (partition by run_id, group_key, name) as ranks,
        row_number() over (partition by run_id, group_key, name order by ts, rank_id) as first_order,
        row_number() over (partition by run_id, group_key, name order by ts desc, rank_id) as last_order
    from ops
),

instances as (
    select
        run_id,
        group_key,
        max(group_name) as group_name,
        name,
        min(ts) as start_ns,
        max(end_ns) as end_ns,
        max(case when first_order = 1 then rank_id end) as fast_rank_id,
        max(case when last_order = 1 then rank_id end) as slow_rank_id,
        max(ts) - min(ts) as wait_ns,
        max(end_ns - ts) - min(end_ns - ts) < :slow_npu_ratio * max(end_ns - ts) as even
    from ordered
    where ranks > 1
    group by run_id, group_key, name
    having max(ts) - min(ts) >= :min_wait_ns
),

reach as (
    -- the longest kernel of each rank bounds the (source_id, ts) index search of the wait windows
    select run_id, rank_id, max(dur) as max_dur
    from kernel_answer
    where :run_id is null or run_id = :run_id
    group by run_id, rank_id
),

windows as materialized (
    select i.run_id, i.group_key, i.name, i.slow_rank_id, i.start_ns, i.start_ns + i.wait_ns as stop_ns,
        i.start_ns - r.max_dur as search_from
    from instances as i
    join reach as r on r.run_id = i.run_id and r.rank_id = i.slow_rank_id
),

busy as (
    select
        w.run_id,
        w.group_key,
        w.name,
        sum(
            case when k.ts + k.dur < w.stop_ns then k.ts + k.dur else w.stop_ns end
            - case when k.ts > w.start_ns then k.ts else w.start_ns end
        ) as kernel_ns
    from windows as w
    join kernel_answer as k
        on k.run_id = w.run_id and k.rank_id = w.slow_rank_id and k.ts >= w.search_from and k.ts < w.stop_ns
    where k.ts + k.dur > w.start_ns
    group by w.run_id, w.group_key, w.name
),

measured as (
    select
        i.run_id,
        i.name,
        i.group_name,
        i.start_ns,
        i.end_ns,
        i.end_ns - i.start_ns as duration_ns,
        i.fast_rank_id,
        i.slow_rank_id,
        i.wait_ns,
        i.even,
        case
            when r.rank_id is null then null
            when coalesce(b.kernel_ns, 0) > i.wait_ns then i.wait_ns
            else coalesce(b.kernel_ns, 0)
        end as slow_rank_kernel_ns,
        row_number() over (partition by i.run_id order by i.wait_ns desc, i.start_ns, i.name, i.group_key)
            as position
    from instances as i
    left join busy as b on b.run_id = i.run_id and b.group_key = i.group_key and b.name = i.name
    left join reach as r on r.run_id = i.run_id and r.rank_id = i.slow_rank_id
),

final as (
    select
        run_id, name, group_name, start_ns, end_ns, duration_ns, fast_rank_id, slow_rank_id, wait_ns,
        slow_rank_kernel_ns, even
    from measured
    where position <= :limit
)

select
    run_id, name, group_name, start_ns, end_ns, duration_ns,
    case when not even then fast_rank_id end as fast_rank_id,
    case when not even then slow_rank_id end as slow_rank_id,
    wait_ns, slow_rank_kernel_ns,
    case when even then 'no slow rank: durations differ by under ' || :slow_npu_ratio || ' of the longest'
        when slow_rank_kernel_ns is null then 'slow rank''s kernels not recorded'
        when 2 * slow_rank_kernel_ns >= wait_ns and wait_ns > 0 then 'slow rank computing'
        else 'slow rank idle (host or launch bound)' end as reason
from final
order by run_id, wait_ns desc, start_ns, name
