-- description: The HCCL operators (hccl_operator) per run, rank and operator type: the type as
--     the input states it, else the name less its instance suffix ('hcom_allReduce__868_0_1': a
--     level0 rank db writes 'N/A', kernel_details.csv no type), so both exports name it alike;
--     count, count with a duration, total and longest; a staged rank's from staged_hccl. What
--     communication_ops sums.
-- column run_id: Run.
-- column rank_id: Rank.
-- column name: Operator type (hccl_total.name).
-- column count: Number of operators.
-- column timed: Number of them with a duration.
-- column total_ns: Summed duration in ns.
-- column max_ns: Longest operator in ns.
WITH typed AS (
    SELECT
        run_id, rank_id,
        coalesce(
            nullif(op_type, 'N/A'), CASE WHEN instr(name, '__') > 0 THEN substr(name, 1, instr(name, '__')) END, name
        ) AS name,
        dur
    FROM hccl_operator
)
SELECT run_id, rank_id, name, count(*) AS count, count(dur) AS timed, sum(dur) AS total_ns, max(dur) AS max_ns
FROM typed
GROUP BY run_id, rank_id, name
UNION ALL
SELECT a.run_id, h.rank_id, h.name, h.count, h.timed, h.total_ns, h.max_ns
FROM staged_hccl AS h
JOIN answer_source AS a ON a.source_id = h.source_id AND a.fact = 'kernel'
