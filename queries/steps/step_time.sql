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

activity as (
    select
        rank_id,
        ts,
        ts + dur as end_ns,
        case when op_class = 'communication' then 'communication' else 'compute' end as kind
    from kernel
    where dur > 0
    union all
    select rank_id, ts, ts + dur as end_ns, 'communication' as kind
    from communication_op
    where dur > 0
),

clipped as (
    select
        s.rank_id,
        s.step_id,
        a.kind,
        case when a.ts > s.start_ns then a.ts else s.start_ns end as lo,
        case when a.end_ns < s.end_ns then a.end_ns else s.end_ns end as hi
    from steps as s
    join activity as a on a.rank_id = s.rank_id and a.ts < s.end_ns and a.end_ns > s.start_ns
),

labelled as (
    select rank_id, step_id, kind, lo, hi from clipped
    union all
    select rank_id, step_id, 'busy' as kind, lo, hi from clipped
),

ordered as (
    select
        rank_id, step_id, kind, lo, hi,
        max(hi) over (
            partition by rank_id, step_id, kind order by lo, hi
            rows between unbounded preceding and 1 preceding
        ) as reach
    from labelled
),

islands as (
    select
        rank_id, step_id, kind, lo, hi,
        sum(case when reach is null or lo > reach then 1 else 0 end) over (
            partition by rank_id, step_id, kind order by lo, hi rows unbounded preceding
        ) as island
    from ordered
),

merged as (
    select rank_id, step_id, kind, max(hi) - min(lo) as length
    from islands
    group by rank_id, step_id, kind, island
),

totals as (
    select
        rank_id,
        step_id,
        sum(case when kind = 'compute' then length else 0 end) as compute_ns,
        sum(case when kind = 'communication' then length else 0 end) as communication_ns,
        sum(case when kind = 'busy' then length else 0 end) as busy_ns
    from merged
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
