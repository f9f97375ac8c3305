-- title: Step time breakdown
-- description: Per rank and step, how the step's wall time splits into device compute,
--     communication, their overlap and free (idle) time, as msprof-analyze's
--     cluster_time_summary does. Compute is the union of the non-communication kernels'
--     intervals, communication the union of communication kernels and HCCL operators,
--     each clipped to the step; free = duration - |compute union communication|.
-- param rank_id (integer, default null): Only this rank; every rank when null.
-- column rank_id: Rank.
-- column step_id: Step number.
-- column start_ns: Step start in ns.
-- column end_ns: Step end in ns.
-- column duration_ns: end_ns - start_ns.
-- column compute_ns: Time some compute kernel ran, in ns.
-- column communication_ns: Time some communication ran, in ns.
-- column overlap_ns: Time compute and communication ran together, in ns.
-- column free_ns: Time neither ran, in ns.
with steps as (
    select rank_id, step_id, start_ns, end_ns
    from step
    where :rank_id is null or rank_id = :rank_id
),

reach as (
    -- the longest activity of each rank: an interval overlapping a step starts at most this
    -- long before it, which bounds the (rank_id, ts) index searches below
    select rank_id, max(dur) as max_dur from kernel group by rank_id
    union all
    select rank_id, max(dur) as max_dur from communication_op group by rank_id
),

bounds as (
    select s.rank_id, s.step_id, s.start_ns, s.end_ns, s.start_ns - max(r.max_dur) as search_from
    from steps as s
    join reach as r on r.rank_id = s.rank_id
    group by s.rank_id, s.step_id, s.start_ns, s.end_ns
),

kernels as (
    select
        b.rank_id, b.step_id, b.start_ns, b.end_ns, k.ts, k.ts + k.dur as stop_ns,
        case when k.op_class = 'communication' then 'communication' else 'compute' end as kind
    from bounds as b
    join kernel as k on k.rank_id = b.rank_id and k.ts >= b.search_from and k.ts < b.end_ns
    where k.dur > 0 and k.ts + k.dur > b.start_ns
),

operators as (
    select
        b.rank_id, b.step_id, b.start_ns, b.end_ns, c.ts, c.ts + c.dur as stop_ns, 'communication' as kind
    from bounds as b
    join communication_op as c on c.rank_id = b.rank_id and c.ts >= b.search_from and c.ts < b.end_ns
    where c.dur > 0 and c.ts + c.dur > b.start_ns
),

clipped as (
    select
        rank_id,
        step_id,
        kind,
        case when ts > start_ns then ts else start_ns end as lo,
        case when stop_ns < end_ns then stop_ns else end_ns end as hi
    from (
        select rank_id, step_id, start_ns, end_ns, ts, stop_ns, kind from kernels
        union all
        select rank_id, step_id, start_ns, end_ns, ts, stop_ns, kind from operators
    ) as activity
),

ordered as (
    -- one sort for the three windows: the previous intervals of a kind are the previous
    -- intervals of the step filtered by kind
    select
        rank_id, step_id, kind, lo, hi,
        max(case when kind = 'compute' then hi end) over previous as compute_reach,
        max(case when kind = 'communication' then hi end) over previous as communication_reach,
        max(hi) over previous as busy_reach
    from clipped
    window previous as (partition by rank_id, step_id order by lo, hi rows between unbounded preceding and 1 preceding)
),

covered as (
    -- in start order, each interval adds what it covers past the furthest end before it:
    -- summed, that is the length of the union (of its kind, and of all kinds)
    select
        rank_id, step_id, kind, lo, hi, busy_reach,
        case when kind = 'compute' then compute_reach else communication_reach end as kind_reach
    from ordered
),

added as (
    select
        rank_id, step_id, kind,
        case
            when kind_reach is null or kind_reach <= lo then hi - lo
            when hi > kind_reach then hi - kind_reach
            else 0
        end as kind_added,
        case
            when busy_reach is null or busy_reach <= lo then hi - lo
            when hi > busy_reach then hi - busy_reach
            else 0
        end as busy_added
    from covered
),

totals as (
    select
        rank_id,
        step_id,
        sum(case when kind = 'compute' then kind_added else 0 end) as compute_ns,
        sum(case when kind = 'communication' then kind_added else 0 end) as communication_ns,
        sum(busy_added) as busy_ns
    from added
    group by rank_id, step_id
),

final as (
    select
        s.rank_id,
        s.step_id,
        s.start_ns,
        s.end_ns,
        s.end_ns - s.start_ns as duration_ns,
        coalesce(t.compute_ns, 0) as compute_ns,
        coalesce(t.communication_ns, 0) as communication_ns,
        coalesce(t.compute_ns + t.communication_ns - t.busy_ns, 0) as overlap_ns,
        s.end_ns - s.start_ns - coalesce(t.busy_ns, 0) as free_ns
    from steps as s
    left join totals as t on t.rank_id = s.rank_id and t.step_id = s.step_id
)

select rank_id, step_id, start_ns, end_ns, duration_ns, compute_ns, communication_ns, overlap_ns, free_ns
from final
order by rank_id, step_id
