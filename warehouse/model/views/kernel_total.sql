-- description: The answering device kernels (kernel_answer) per run, rank, name and class:
--     count, count with a duration, total and longest; a staged rank's from staged_kernel. What
--     top_kernels sums.
-- column run_id: Run.
-- column rank_id: Rank.
-- column name: Kernel name.
-- column op_class: Class (seed 004), as the kernel classification gives it
--     (warehouse/model/classify.sql).
-- column count: Number of kernels.
-- column timed: Number of them with a duration.
-- column total_ns: Summed duration in ns.
-- column max_ns: Longest kernel in ns.
SELECT run_id, rank_id, name, op_class, count(*) AS count, count(dur) AS timed, sum(dur) AS total_ns,
    max(dur) AS max_ns
FROM kernel_answer
GROUP BY run_id, rank_id, name, op_class
UNION ALL
SELECT a.run_id, k.rank_id, k.name, k.op_class, k.count, k.timed, k.total_ns, k.max_ns
FROM staged_kernel AS k
JOIN answer_source AS a ON a.source_id = k.source_id AND a.fact = 'kernel'
