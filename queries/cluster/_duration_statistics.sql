-- Helper (included by the *_sum queries, not a query itself): msprof-analyze's duration
-- statistics over a CTE named items (run_id, rank_id, name, dur), one row per run, rank and
-- name: count, sum, mean, sample standard deviation, min, quartiles (nearest rank), median,
-- max; the including query declares the columns run_id, rank_id, name, count, total_ns,
-- mean_ns, std_ns, min_ns, q1_ns, median_ns, q3_ns, max_ns.
ranked as (
    select
        run_id, rank_id, name, dur,
        row_number() over (partition by run_id, rank_id, name order by dur) as position,
        count(*) over (partition by run_id, rank_id, name) as n,
        avg(1.0 * dur) over (partition by run_id, rank_id, name) as mean
    from items
),

final as (
    select
        run_id,
        rank_id,
        name,
        count(*) as count,
        sum(dur) as total_ns,
        avg(1.0 * dur) as mean_ns,
        sqrt(sum((dur - mean) * (dur - mean)) / nullif(count(*) - 1, 0)) as std_ns,
        min(dur) as min_ns,
        min(case when position >= 0.25 * n and position - 1 < 0.25 * n then dur end) as q1_ns,
        avg(case when 2 * position in (n, n + 1, n + 2) then 1.0 * dur end) as median_ns,
        min(case when position >= 0.75 * n and position - 1 < 0.75 * n then dur end) as q3_ns,
        max(dur) as max_ns
    from ranked
    group by run_id, rank_id, name
)

select run_id, rank_id, name, count, total_ns, mean_ns, std_ns, min_ns, q1_ns, median_ns, q3_ns, max_ns
from final
order by run_id, rank_id, total_ns desc, name
