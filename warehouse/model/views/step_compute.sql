-- description: Per run, step and known rank (rank_id >= 0) with compute kernels: the compute the
--     cross-rank rules compare, and its median over the step's ranks (the middle value, or the
--     mean of the two middle ones). The measure is the profiler's own Computing (step_summary:
--     step_trace_time.csv, analysis.db StepTraceTime, cluster_step_trace_time.csv) where it
--     answers for every rank of the step, else the rank's compute kernel time (the summed
--     duration of its compute kernels, op_class.is_compute). A rank's kernels are whole unless
--     the profiler states a Computing for its step that they fall more than 5 % short of: the
--     sum of its kernels the step trace counts as compute (op_class.step_trace_compute; a sum
--     is never less than the profiler's union of them) under 95 % of that Computing means the
--     input holds only part of its kernels. Such a rank is never judged on its kernels: its
--     kernel count is left out of the kernel medians (kernels_whole 0), and where the step is
--     measured by kernels it is not in the view at all. Where the profiler states no Computing
--     (a kineto trace, an input without step_trace_time) every rank is measured by its kernels.
-- column run_id: Run.
-- column step_id: Step number as the profiler numbers it.
-- column rank_id: Rank (-1 where the input leaves it unset).
-- column ranks: Number of ranks of the step in the view.
-- column compute_ns: The rank's compute in the step, in ns: profiler_ns when measured_by is
--     'profiler', kernel_ns when 'kernels'.
-- column median_ns: Median of compute_ns over the step's ranks, in ns.
-- column measured_by: profiler (the profiler's Computing answers for every rank of the step) or
--     kernels (the ranks' compute kernel time).
-- column kernel_ns: The rank's compute kernel time in the step (op_class.is_compute), in ns.
-- column profiler_ns: The profiler's Computing for the rank and step (step_summary), in ns; NULL
--     where it states none.
-- column kernels_whole: 1 when the rank's kernels are its whole compute (no profiler figure, or
--     their step-trace compute sum reaches 95 % of it), 0 when the input holds only part of them.
-- column kernels: The rank's number of compute kernels in the step.
-- column median_kernels: Median of kernels over the step's ranks whose kernels are whole.
WITH kernel_sums AS (
    SELECT
        k.run_id, k.step_id, k.rank_id,
        SUM(CASE WHEN k.is_compute = 1 THEN k.dur ELSE 0 END) AS kernel_ns,
        SUM(k.is_compute) AS kernels,
        SUM(CASE WHEN coalesce(c.step_trace_compute, 1) = 1 THEN k.dur ELSE 0 END) AS step_trace_ns
    FROM step_kernel AS k
    LEFT JOIN op_class AS c ON c.op_class = k.op_class
    WHERE k.rank_id >= 0
    GROUP BY k.run_id, k.step_id, k.rank_id
    HAVING SUM(k.is_compute) > 0
),
stated AS (
    SELECT
        k.run_id, k.step_id, k.rank_id, k.kernel_ns, k.kernels, s.computing_ns AS profiler_ns,
        CASE WHEN k.step_trace_ns < 0.95 * s.computing_ns THEN 0 ELSE 1 END AS kernels_whole,
        CASE
            WHEN COUNT(s.computing_ns) OVER step_ranks = COUNT(*) OVER step_ranks THEN 'profiler' ELSE 'kernels'
        END AS measured_by
    FROM kernel_sums AS k
    LEFT JOIN step_summary AS s ON s.run_id = k.run_id AND s.rank_id = k.rank_id AND s.step_id = k.step_id
    WINDOW step_ranks AS (PARTITION BY k.run_id, k.step_id)
),
per_rank AS (
    SELECT
        run_id, step_id, rank_id, kernel_ns, kernels, profiler_ns, kernels_whole, measured_by,
        CASE WHEN measured_by = 'profiler' THEN profiler_ns ELSE kernel_ns END AS compute_ns
    FROM stated
    WHERE measured_by = 'profiler' OR kernels_whole = 1
),
step_measures AS (
    SELECT run_id, step_id, rank_id, 'compute_ns' AS measure, compute_ns AS value FROM per_rank
    UNION ALL
    SELECT run_id, step_id, rank_id, 'kernels', kernels FROM per_rank WHERE kernels_whole = 1
),
-- include: _step_medians
SELECT
    r.run_id, r.step_id, r.rank_id, t.ranks, r.compute_ns, t.median AS median_ns, r.measured_by, r.kernel_ns,
    r.profiler_ns, r.kernels_whole, r.kernels, k.median AS median_kernels
FROM per_rank AS r
JOIN step_medians AS t ON t.run_id = r.run_id AND t.step_id = r.step_id AND t.measure = 'compute_ns'
LEFT JOIN step_medians AS k ON k.run_id = r.run_id AND k.step_id = r.step_id AND k.measure = 'kernels'
