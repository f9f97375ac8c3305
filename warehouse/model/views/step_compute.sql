-- description: Per run, step and known rank (rank_id >= 0): compute kernel time and count, with
--     their medians over the step's ranks (the middle value, or the mean of the two middle
--     ones): what the cross-rank rules compare.
-- column run_id: Run.
-- column step_id: Step number as the profiler numbers it.
-- column rank_id: Rank (-1 where the input leaves it unset).
-- column ranks: Number of known ranks with compute kernels in the step.
-- column compute_ns: The rank's compute kernel time in the step, in ns.
-- column median_ns: Median of compute_ns over the step's ranks, in ns.
-- column kernels: The rank's number of compute kernels in the step.
-- column median_kernels: Median of kernels over the step's ranks.
WITH per_rank AS (
    SELECT run_id, step_id, rank_id, SUM(dur) AS compute_ns, COUNT(*) AS kernels
    FROM step_kernel
    WHERE is_compute = 1 AND rank_id >= 0
    GROUP BY run_id, step_id, rank_id
),
ranked AS (
    SELECT
        run_id, step_id, rank_id, compute_ns, kernels,
        ROW_NUMBER() OVER (PARTITION BY run_id, step_id ORDER BY compute_ns, rank_id) AS time_position,
        ROW_NUMBER() OVER (PARTITION BY run_id, step_id ORDER BY kernels, rank_id) AS count_position,
        COUNT(*) OVER (PARTITION BY run_id, step_id) AS ranks
    FROM per_rank
),
medians AS (
    SELECT
        run_id, step_id,
        AVG(CASE WHEN 2 * time_position IN (ranks, ranks + 1, ranks + 2) THEN compute_ns END) AS median_ns,
        AVG(CASE WHEN 2 * count_position IN (ranks, ranks + 1, ranks + 2) THEN kernels END) AS median_kernels
    FROM ranked
    GROUP BY run_id, step_id
)
SELECT r.run_id, r.step_id, r.rank_id, r.ranks, r.compute_ns, m.median_ns, r.kernels, m.median_kernels
FROM ranked AS r
JOIN medians AS m ON m.run_id = r.run_id AND m.step_id = r.step_id
