-- Reconciliation: the communication time of each step the warehouse derives from its HCCL
-- operator rows (step_activity's operators, whichever HCCL rows the step trace counted: the
-- rank db's COMMUNICATION_OP or the text export's HCCL kernels, whichever answers) agrees with
-- the profiler's own per-operator figures for the same run, rank and step (analysis.db
-- CommAnalyzerTime, communication.json, cluster_communication.json: the sum of the operators'
-- Elapse Time). Lists each step whose times differ by more than 1% (and 1 us). Steps with no
-- derived breakdown have nothing to compare. Every disagreeing step is shown, the largest
-- disagreement (relative to the profiler's figure) first.
-- examples: 200
WITH profiler AS (
    SELECT s.run_id, t.rank_id, t.step_id, s.kind, t.source_id, count(*) AS operators, sum(t.elapse_ns) AS elapse_ns
    FROM communication_time AS t
    JOIN source AS s ON s.id = t.source_id AND s.status = 'ok'
    WHERE t.op_name != 'Total Op Info'
    GROUP BY s.run_id, t.rank_id, t.step_id, s.kind, t.source_id
),
derived AS (
    SELECT run_id, rank_id, step_id, count(*) AS operators, sum(hi - lo) AS elapse_ns
    FROM step_activity
    WHERE kind = 'communication' AND unit != 'task'
    GROUP BY run_id, rank_id, step_id
)
SELECT
    p.run_id, p.rank_id, p.step_id, p.kind AS profiler_input, p.source_id, p.operators AS profiler_operators,
    coalesce(d.operators, 0) AS warehouse_operators, p.elapse_ns AS profiler_ns, coalesce(d.elapse_ns, 0) AS warehouse_ns,
    round(100.0 * (coalesce(d.elapse_ns, 0) - p.elapse_ns) / p.elapse_ns, 2) AS differs_pct
FROM profiler AS p
JOIN step_breakdown AS b ON b.run_id = p.run_id AND b.rank_id = p.rank_id AND b.step_id = p.step_id
LEFT JOIN derived AS d ON d.run_id = p.run_id AND d.rank_id = p.rank_id AND d.step_id = p.step_id
WHERE abs(coalesce(d.elapse_ns, 0) - p.elapse_ns) > 1000
  AND abs(coalesce(d.elapse_ns, 0) - p.elapse_ns) > 0.01 * abs(p.elapse_ns)
ORDER BY abs(coalesce(d.elapse_ns, 0) - p.elapse_ns) * 1.0 / abs(p.elapse_ns) DESC, p.run_id, p.rank_id, p.step_id
