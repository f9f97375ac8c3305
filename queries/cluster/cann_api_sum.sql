-- title: CANN API statistics (msprof-analyze cann_api_sum)
-- description: Duration statistics of the CANN host API calls (CANN_API) per run and API
--     name, per rank or over all ranks of the run at once: count, sum, mean, sample
--     standard deviation, min, quartiles and median (linear interpolation, numpy's default
--     quantile, as msprof-analyze's cann_api_sum computes them per rank), max. Where the
--     peer differs: its per-rank stdev is the population one (n, numpy's std), and over all
--     ranks it takes the least rank Q1, the median of the rank medians and the greatest rank
--     Q3, where this query takes the quartiles of all the calls.
-- param run_id (integer, default null): Only this run; every run when null.
-- param per_rank (boolean, default false): One row per rank and API; false: over all ranks of the run.
-- column run_id: Run.
-- column rank_id: Rank (null when per_rank is false).
-- column name: API name (e.g. aclnnMatmul, launch).
-- column count: Number of calls.
-- column total_ns: Summed duration in ns.
-- column mean_ns: Mean duration in ns.
-- column std_ns: Sample standard deviation in ns (null for a single call).
-- column min_ns: Shortest in ns.
-- column q1_ns: First quartile in ns (linear interpolation at position (n - 1) / 4 of the
--     sorted durations, counted from 0).
-- column median_ns: Median in ns (mean of the two middle values for an even count).
-- column q3_ns: Third quartile in ns (linear interpolation at position 3 (n - 1) / 4).
-- column max_ns: Longest in ns.
with items as (
    select s.run_id, case when :per_rank = 1 then c.rank_id end as rank_id, null as step_id, c.name, null as core_type, c.dur
    from cann_api as c
    join source as s on s.id = c.source_id
    where c.dur is not null and (:run_id is null or s.run_id = :run_id)
),

-- include: _duration_statistics

select run_id, rank_id, name, count, total_ns, mean_ns, std_ns, min_ns, q1_ns, median_ns, q3_ns, max_ns
from final
order by run_id, rank_id, total_ns desc, name
