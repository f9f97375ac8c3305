-- Helper (included by the *_sum queries, not a query itself): msprof-analyze's duration
-- statistics over a CTE named items (run_id, rank_id, step_id, name, core_type, dur), one row of
-- the CTE final per run, rank, step, name and core type (step_id is null where the query does not
-- group by step, core_type where the input has none):
-- count, sum, mean, sample standard deviation (n - 1, as pandas' std), min, quartiles,
-- median, max. The including query selects and orders its columns from final.
-- Quartiles and median are pandas' default linear interpolation, as msprof-analyze 26.2
-- computes them: describe_duration in cluster_analyse/common_func/utils.py (compute_op_sum,
-- hccl_sum) takes the group's quantiles at 0.25, 0.5 and 0.75, mstx_sum pandas' describe, and
-- cann_api_sum numpy's default quantile (prof_common/sql_extention_func.py). The p quantile of
-- n sorted values sits at position p * (n - 1), counted from 0; between two values it is the
-- lower one plus that fraction of their difference.
ranked as (
    select
        run_id, rank_id, step_id, name, core_type, dur,
        row_number() over (partition by run_id, rank_id, step_id, name, core_type order by dur) - 1 as below,
        count(*) over (partition by run_id, rank_id, step_id, name, core_type) - 1 as last,
        avg(1.0 * dur) over (partition by run_id, rank_id, step_id, name, core_type) as mean
    from items
),

-- Each value's distance from the position of each quantile: the one or two values nearer than
-- 1 weigh 1 - distance, which is the linear interpolation between them (exact at a value).
distances as (
    select
        run_id, rank_id, step_id, name, core_type, dur, mean,
        abs(below - 0.25 * last) as from_q1,
        abs(below - 0.5 * last) as from_median,
        abs(below - 0.75 * last) as from_q3
    from ranked
),

final as (
    select
        run_id,
        rank_id,
        step_id,
        name,
        core_type,
        count(*) as count,
        sum(dur) as total_ns,
        avg(1.0 * dur) as mean_ns,
        sqrt(sum((dur - mean) * (dur - mean)) / nullif(count(*) - 1, 0)) as std_ns,
        min(dur) as min_ns,
        sum(case when from_q1 < 1 then (1 - from_q1) * dur end) as q1_ns,
        sum(case when from_median < 1 then (1 - from_median) * dur end) as median_ns,
        sum(case when from_q3 < 1 then (1 - from_q3) * dur end) as q3_ns,
        max(dur) as max_ns
    from distances
    group by run_id, rank_id, step_id, name, core_type
)
