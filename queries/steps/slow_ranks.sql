-- title: Slow ranks
-- description: Per step, each rank's step duration against the median over ranks; a rank
--     is flagged when its step takes more than threshold times the median.
-- param threshold (real, default 1.2): Ratio to the median above which a rank is flagged.
-- column rank_id: Rank.
-- column step_id: Step number.
-- column duration_ns: The rank's step duration in ns.
-- column median_ns: Median step duration over the ranks of that step, in ns.
-- column ratio: duration_ns / median_ns.
-- column flagged: 1 when ratio > threshold, else 0.
with durations as (
    select rank_id, step_id, end_ns - start_ns as duration_ns
    from step
),

ranked as (
    select
        rank_id, step_id, duration_ns,
        row_number() over (partition by step_id order by duration_ns, rank_id) as position,
        count(*) over (partition by step_id) as ranks
    from durations
),

medians as (
    -- the middle row, or the mean of the two middle rows: 2 * position in (n, n + 1, n + 2)
    select step_id, avg(duration_ns) as median_ns
    from ranked
    where 2 * position in (ranks, ranks + 1, ranks + 2)
    group by step_id
),

final as (
    select
        r.rank_id,
        r.step_id,
        r.duration_ns,
        m.median_ns,
        1.0 * r.duration_ns / nullif(m.median_ns, 0) as ratio,
        case when r.duration_ns > :threshold * m.median_ns then 1 else 0 end as flagged
    from ranked as r
    join medians as m on m.step_id = r.step_id
)

select rank_id, step_id, duration_ns, median_ns, ratio, flagged
from final
order by step_id, rank_id
