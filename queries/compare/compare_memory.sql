-- title: Compare memory peaks of two runs
-- description: The memory peaks of two runs side by side (issue 17), per rank (paired by place in
--     the cluster where both runs state their shape, else by rank id, two one-rank runs by being
--     each one's only rank: paired_by, queries/compare/_rank_pair.sql) and profiler component (APP: the whole process; PTA, GE, PTA+GE: the framework; never mixed),
--     and per component over all ranks (scope overall: the highest peak of any rank). The peaks are
--     memory_peak's: the highest total allocated and total reserved of the memory records of the
--     input that answers the rank's memory (answer_source, fact memory). One row per metric; the
--     largest change (absolute difference) first, a rank or component in one run only last.
--     run_id null: the run that started last; base_run_id null: the run that started just before
--     run_id (runs in start order, a run whose start is unknown first, by id).
-- param run_id (integer, default null): The run compared (the new one); the run that started last when null.
-- param base_run_id (integer, default null): The baseline run; the run that started just before run_id when null.
-- column run_id: The run compared.
-- column base_run_id: The baseline run.
-- column scope: overall (the highest peak of any rank) or rank.
-- column rank_id: The run's rank (the baseline's when the run has none at its place); null for scope
--     overall and for records without a rank.
-- column base_rank_id: The baseline's rank paired with it, when its id differs from rank_id; null otherwise.
-- column paired_by: How the rank's pair was made: place, rank id or only rank; null for scope overall.
-- column component: Profiler component: APP, PTA, GE or PTA+GE.
-- column metric: peak_allocated_bytes or peak_reserved_bytes.
-- column base_bytes: The peak in the baseline, in bytes (null when it has none).
-- column run_bytes: The peak in the run, in bytes (null when it has none).
-- column difference_bytes: run_bytes - base_bytes (positive: the run needs more).
-- column ratio: run_bytes / base_bytes; null when base_bytes is 0 or missing.
with pair as (
    -- the run (default: the latest) and its baseline (default: the run before it)
    select h.run_id, coalesce(:base_run_id, h.previous_run_id) as base_run_id
    from run_history as h
    where h.run_id = coalesce(:run_id, (select max(run_id) from run_history where position = (select max(position) from run_history)))
),
peaks as (
    select
        a.run_id, m.rank_id, m.component,
        max(m.total_allocated_bytes) as peak_allocated_bytes,
        max(m.total_reserved_bytes) as peak_reserved_bytes
    from memory_record as m
    join answer_source as a on a.source_id = m.source_id and a.fact = 'memory'
    join pair as p on a.run_id = p.run_id or a.run_id = p.base_run_id
    group by a.run_id, m.rank_id, m.component
),

compared_ranks as (
    select run_id, rank_id from peaks
),

-- include: _rank_pair
,

paired_peaks as (
    select
        k.run_id, q.base_rank_id, q.run_rank_id, q.paired_by, k.component, k.peak_allocated_bytes,
        k.peak_reserved_bytes
    from peaks as k
    join rank_pair as q on q.run_id = k.run_id and (q.rank_id = k.rank_id or (q.rank_id is null and k.rank_id is null))
),

long as (
    select run_id, 'rank' as scope, base_rank_id, run_rank_id, paired_by, component, 'peak_allocated_bytes' as metric,
        peak_allocated_bytes as value
    from paired_peaks
    union all
    select run_id, 'rank' as scope, base_rank_id, run_rank_id, paired_by, component, 'peak_reserved_bytes' as metric,
        peak_reserved_bytes as value
    from paired_peaks
    union all
    select run_id, 'overall' as scope, null as base_rank_id, null as run_rank_id, null as paired_by, component,
        'peak_allocated_bytes' as metric, max(peak_allocated_bytes) as value
    from peaks
    group by run_id, component
    union all
    select run_id, 'overall' as scope, null as base_rank_id, null as run_rank_id, null as paired_by, component,
        'peak_reserved_bytes' as metric, max(peak_reserved_bytes) as value
    from peaks
    group by run_id, component
),

keys as (
    select distinct scope, base_rank_id, run_rank_id, paired_by, component, metric
    from long
),

final as (
    select
        p.run_id,
        p.base_run_id,
        k.scope,
        coalesce(k.run_rank_id, k.base_rank_id) as rank_id,
        case when k.base_rank_id <> k.run_rank_id then k.base_rank_id end as base_rank_id,
        k.paired_by,
        k.component,
        k.metric,
        b.value as base_bytes,
        r.value as run_bytes,
        r.value - b.value as difference_bytes,
        1.0 * r.value / nullif(b.value, 0) as ratio
    from pair as p
    cross join keys as k
    left join long as b
        on b.run_id = p.base_run_id and b.scope = k.scope and b.metric = k.metric
        and (b.component = k.component or (b.component is null and k.component is null))
        and (b.base_rank_id = k.base_rank_id or (b.base_rank_id is null and k.base_rank_id is null))
        and (b.run_rank_id = k.run_rank_id or (b.run_rank_id is null and k.run_rank_id is null))
    left join long as r
        on r.run_id = p.run_id and r.scope = k.scope and r.metric = k.metric
        and (r.component = k.component or (r.component is null and k.component is null))
        and (r.base_rank_id = k.base_rank_id or (r.base_rank_id is null and k.base_rank_id is null))
        and (r.run_rank_id = k.run_rank_id or (r.run_rank_id is null and k.run_rank_id is null))
)

select
    run_id, base_run_id, scope, rank_id, base_rank_id, paired_by, component, metric, base_bytes, run_bytes, difference_bytes, ratio
from final
order by
    case when difference_bytes is null then 1 else 0 end, abs(difference_bytes) desc,
    case when scope = 'overall' then 0 else 1 end, rank_id, component, metric
