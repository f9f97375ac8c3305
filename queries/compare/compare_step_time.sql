-- title: Compare step time of two runs
-- description: The step breakdown of two runs side by side (issue 17), in the profiler's terms
--     (README, "Definitions"; the step_answer view: the profiler's own summary where it wrote one,
--     else the breakdown derived from the rows). Each rank's steps are averaged first, so runs with
--     different step ids or step counts compare; ranks are paired by their place in the cluster where
--     both runs state their shape, else by rank id, two one-rank runs by being each one's only rank
--     (paired_by; the compare queries' one pairing, queries/compare/_rank_pair.sql), and scope
--     'overall' is the mean over the run's ranks of their means. One row per rank (or overall) and component:
--     computing, communication_not_overlapped, overlapped, communication, free, preparing, stage,
--     bubble, duration. Largest change (absolute difference) first; a rank in one run only last.
--     run_id null: the run that started last; base_run_id null: the run that started just before
--     run_id (runs in start order, a run whose start is unknown first, by id).
-- param run_id (integer, default null): The run compared (the new one); the run that started last when null.
-- param base_run_id (integer, default null): The baseline run; the run that started just before run_id when null.
-- column run_id: The run compared.
-- column base_run_id: The baseline run.
-- column scope: overall (mean over the run's ranks) or rank.
-- column rank_id: The run's rank (the baseline's when the run has none at its place); null for scope overall.
-- column base_rank_id: The baseline's rank paired with it, when its id differs from rank_id; null otherwise.
-- column paired_by: How the rank's pair was made: place, rank id or only rank; null for scope overall.
-- column component: Step component: computing, communication_not_overlapped, overlapped, communication, free, preparing, stage, bubble or duration.
-- column base_steps: Steps averaged in the baseline (of the rank, or of every rank).
-- column run_steps: Steps averaged in the run.
-- column base_ns: Mean per step in the baseline, in ns.
-- column run_ns: Mean per step in the run, in ns.
-- column difference_ns: run_ns - base_ns (positive: the run is slower); null when the rank is in one run only.
-- column ratio: run_ns / base_ns; null when base_ns is 0 or missing.
with pair as (
    -- the run (default: the latest) and its baseline (default: the run before it)
    select h.run_id, coalesce(:base_run_id, h.previous_run_id) as base_run_id
    from run_history as h
    where h.run_id = coalesce(:run_id, (select max(run_id) from run_history where position = (select max(position) from run_history)))
),
rank_means as (
    select
        s.run_id,
        s.rank_id,
        count(*) as steps,
        avg(s.computing_ns) as computing_ns,
        avg(s.communication_not_overlapped_ns) as communication_not_overlapped_ns,
        avg(s.overlapped_ns) as overlapped_ns,
        avg(s.communication_ns) as communication_ns,
        avg(s.free_ns) as free_ns,
        avg(s.preparing_ns) as preparing_ns,
        avg(s.stage_ns) as stage_ns,
        avg(s.bubble_ns) as bubble_ns,
        avg(s.duration_ns) as duration_ns
    from step_answer as s
    where s.run_id in (select run_id from pair union select base_run_id from pair)
    group by s.run_id, s.rank_id
),

compared_ranks as (
    select run_id, rank_id from rank_means
),

-- include: _rank_pair
,

scoped as (
    select
        m.run_id, 'rank' as scope, q.base_rank_id, q.run_rank_id, q.paired_by, m.steps, m.computing_ns,
        m.communication_not_overlapped_ns, m.overlapped_ns, m.communication_ns, m.free_ns, m.preparing_ns,
        m.stage_ns, m.bubble_ns, m.duration_ns
    from rank_means as m
    join rank_pair as q on q.run_id = m.run_id and (q.rank_id = m.rank_id or (q.rank_id is null and m.rank_id is null))
    union all
    select
        run_id, 'overall' as scope, null as base_rank_id, null as run_rank_id, null as paired_by, sum(steps) as steps,
        avg(computing_ns) as computing_ns,
        avg(communication_not_overlapped_ns) as communication_not_overlapped_ns, avg(overlapped_ns) as overlapped_ns,
        avg(communication_ns) as communication_ns, avg(free_ns) as free_ns, avg(preparing_ns) as preparing_ns,
        avg(stage_ns) as stage_ns, avg(bubble_ns) as bubble_ns, avg(duration_ns) as duration_ns
    from rank_means
    group by run_id
),

components as (
    select 1 as position, 'computing' as component
    union all select 2 as position, 'communication_not_overlapped' as component
    union all select 3 as position, 'overlapped' as component
    union all select 4 as position, 'communication' as component
    union all select 5 as position, 'free' as component
    union all select 6 as position, 'preparing' as component
    union all select 7 as position, 'stage' as component
    union all select 8 as position, 'bubble' as component
    union all select 9 as position, 'duration' as component
),

long as (
    select
        s.run_id, s.scope, s.base_rank_id, s.run_rank_id, s.paired_by, s.steps, c.position, c.component,
        case c.component
            when 'computing' then s.computing_ns
            when 'communication_not_overlapped' then s.communication_not_overlapped_ns
            when 'overlapped' then s.overlapped_ns
            when 'communication' then s.communication_ns
            when 'free' then s.free_ns
            when 'preparing' then s.preparing_ns
            when 'stage' then s.stage_ns
            when 'bubble' then s.bubble_ns
            else s.duration_ns
        end as value_ns
    from scoped as s
    cross join components as c
),

keys as (
    select distinct scope, base_rank_id, run_rank_id, paired_by, position, component
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
        k.position,
        k.component,
        b.steps as base_steps,
        r.steps as run_steps,
        b.value_ns as base_ns,
        r.value_ns as run_ns,
        r.value_ns - b.value_ns as difference_ns,
        r.value_ns / nullif(b.value_ns, 0) as ratio
    from pair as p
    cross join keys as k
    left join long as b
        on b.run_id = p.base_run_id and b.scope = k.scope and b.position = k.position
        and (b.base_rank_id = k.base_rank_id or (b.base_rank_id is null and k.base_rank_id is null))
        and (b.run_rank_id = k.run_rank_id or (b.run_rank_id is null and k.run_rank_id is null))
    left join long as r
        on r.run_id = p.run_id and r.scope = k.scope and r.position = k.position
        and (r.base_rank_id = k.base_rank_id or (r.base_rank_id is null and k.base_rank_id is null))
        and (r.run_rank_id = k.run_rank_id or (r.run_rank_id is null and k.run_rank_id is null))
)

select
    run_id, base_run_id, scope, rank_id, base_rank_id, paired_by, component, base_steps, run_steps, base_ns, run_ns, difference_ns, ratio
from final
order by
    case when difference_ns is null then 1 else 0 end, abs(difference_ns) desc,
    case when scope = 'overall' then 0 else 1 end, rank_id, position
