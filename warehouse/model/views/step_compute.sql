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
step_measures AS (
    SELECT run_id, step_id, rank_id, 'compute_ns' AS measure, compute_ns AS value FROM per_rank
    UNION ALL
    SELECT run_id, step_id, rank_id, 'kernels', kernels FROM per_rank
),
-- include: _step_medians
SELECT r.run_id, r.step_id, r.rank_id, t.ranks, r.compute_ns, t.median AS median_ns, r.kernels, k.median AS median_kernels
FROM per_rank AS r
JOIN step_medians AS t ON t.run_id = r.run_id AND t.step_id = r.step_id AND t.measure = 'compute_ns'
JOIN step_medians AS k ON k.run_id = r.run_id AND k.step_id = r.step_id AND k.measure = 'kernels'
