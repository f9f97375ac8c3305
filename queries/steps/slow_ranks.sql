-- title: Slow ranks
-- description: Per run and step, each rank's step duration (step_time's duration_ns: host step
--     start to the last device activity) against the median over the run's ranks; a rank is
--     flagged when its step takes more than threshold times the median. Runs are never mixed.
-- param run_id (integer, default null): Only this run; every run when null.
-- param threshold (real, default 1.2): Ratio to the median above which a rank is flagged.
-- column run_id: Run.
-- column rank_id: Rank.
-- column step_id: Step number.
-- column duration_ns: The rank's step duration in ns.
-- column median_ns: Median step duration over the run's ranks of that step, in ns.
-- column ratio: duration_ns / median_ns.
-- column flagged: 1 when ratio > threshold, else 0.
with durations as (
    select run_id, rank_id, step_id, duration_ns
    from step_answer
    where (:run_id is null or run_id = :run_id) and rank_id >= 0
),

step_measures as (
    select run_id, step_id, rank_id, 'duration_ns' as measure, duration_ns as value from durations
),

-- include: _step_medians
,

final as (
    select
        r.run_id,
        r.rank_id,
        r.step_id,
        r.duration_ns,
        m.median as median_ns,
        1.0 * r.duration_ns / nullif(m.median, 0) as ratio,
        case when r.duration_ns > :threshold * m.median then 1 else 0 end as flagged
    from durations as r
    join step_medians as m on m.run_id = r.run_id and m.step_id is r.step_id
)

select run_id, rank_id, step_id, duration_ns, median_ns, ratio, flagged
from final
order by run_id, step_id, rank_id
