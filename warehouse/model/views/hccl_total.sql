-- description: The HCCL operators (hccl_operator) per run, rank and operator type (its
--     type_name, alike for every export and the communication summary): count, count with a duration, total and longest; a
--     staged rank's from staged_hccl. What communication_ops sums.
-- column run_id: Run.
-- column rank_id: Rank.
-- column name: Operator type (hccl_total.name).
-- column count: Number of operators.
-- column timed: Number of them with a duration.
-- column total_ns: Summed duration in ns.
-- column max_ns: Longest operator in ns.
SELECT run_id, rank_id, type_name AS name, count(*) AS count, count(dur) AS timed, sum(dur) AS total_ns, max(dur) AS max_ns
FROM hccl_operator
GROUP BY run_id, rank_id, type_name
UNION ALL
SELECT a.run_id, h.rank_id, h.name, h.count, h.timed, h.total_ns, h.max_ns
FROM staged_hccl AS h
JOIN answer_source AS a ON a.source_id = h.source_id AND a.fact = 'kernel'
