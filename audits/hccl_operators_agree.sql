-- Reconciliation: the HCCL operators the warehouse answers with, per run, rank and operator type
-- (hccl_total, what communication_ops sums: the rank db's COMMUNICATION_OP or the text export's
-- HCCL kernels, whichever answers the rank, else its communication summary's operators) agree with
-- every communication summary the profiler wrote of that rank (analysis.db CommAnalyzerTime,
-- communication.json, cluster_communication.json): as many operators of the type, and their
-- summed Elapse Time within 1% (and 1 us) of the operators' summed duration. Lists each
-- disagreeing type, one only a side holds too; the largest disagreement (relative to the
-- profiler's figure) first. A rank without a summary has nothing to compare.
-- examples: 200
WITH profiler AS (
    SELECT
        s.run_id, t.rank_id, s.kind, t.source_id,
-- include: _instance_type
        AS name,
        count(*) AS operators, sum(t.elapse_ns) AS elapse_ns
    FROM (SELECT *, op_name FROM communication_time WHERE op_name <> 'Total Op Info') AS t
    JOIN source AS s ON s.id = t.source_id AND s.status = 'ok'
    GROUP BY s.run_id, t.rank_id, s.kind, t.source_id, name
),
summaries AS (
    SELECT DISTINCT run_id, rank_id, kind, source_id FROM profiler
),
types AS (
    -- every type either side holds, for each summary of a rank
    SELECT m.run_id, m.rank_id, m.kind, m.source_id, h.name
    FROM summaries AS m
    JOIN hccl_total AS h ON h.run_id = m.run_id AND h.rank_id IS m.rank_id
    UNION
    SELECT run_id, rank_id, kind, source_id, name FROM profiler
),
compared AS (
    SELECT
        y.run_id, y.rank_id, y.name, y.kind AS profiler_input, y.source_id,
        coalesce(p.operators, 0) AS profiler_operators, coalesce(h.count, 0) AS warehouse_operators,
        coalesce(p.elapse_ns, 0) AS profiler_ns, coalesce(h.total_ns, 0) AS warehouse_ns
    FROM types AS y
    LEFT JOIN profiler AS p
        ON p.run_id = y.run_id AND p.rank_id IS y.rank_id AND p.source_id = y.source_id AND p.name = y.name
    LEFT JOIN hccl_total AS h ON h.run_id = y.run_id AND h.rank_id IS y.rank_id AND h.name = y.name
)
SELECT
    run_id, rank_id, name, profiler_input, source_id, profiler_operators, warehouse_operators, profiler_ns,
    warehouse_ns, round(100.0 * (warehouse_ns - profiler_ns) / nullif(profiler_ns, 0), 2) AS differs_pct
FROM compared
WHERE profiler_operators <> warehouse_operators
    OR (abs(warehouse_ns - profiler_ns) > 1000 AND abs(warehouse_ns - profiler_ns) > 0.01 * abs(profiler_ns))
ORDER BY abs(warehouse_ns - profiler_ns) * 1.0 / nullif(abs(profiler_ns), 0) DESC NULLS FIRST, run_id, rank_id, name
