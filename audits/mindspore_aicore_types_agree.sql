-- Reconciliation: MindSpore's AI Core time per operator type of one run and device, from every one-step table
-- that gives it (op_statistic.per_step: the type section of the older profiler's
-- output_op_compute_time_detail_{device}.txt, the older aicore_intermediate_{device}_type.csv), agrees with the
-- table that answers (answer_source, fact aicore_type) where that one sums one step too: each type both name
-- has as many operators and the same time within 1 % or 1 us. Lists each type that differs; a type only one
-- of them names, or an answering table of every run's kernels (today's type CSV: MindInsight's run_1), is
-- not compared.
-- examples: 200
WITH held AS (
    SELECT o.source_id, o.rank_id, o.op_type, o.count, o.total_ns, s.run_id
    FROM op_statistic AS o
    JOIN source AS s ON s.id = o.source_id AND s.status = 'ok'
    WHERE o.per_step = 1
),
answer AS (
    SELECT h.*
    FROM held AS h
    JOIN answer_source AS a ON a.source_id = h.source_id AND a.fact = 'aicore_type'
),
compared AS (
    SELECT
        o.run_id, o.rank_id, o.op_type, r.count AS answer_count, o.count AS other_count, r.total_ns AS answer_ns,
        o.total_ns AS other_ns, r.source_id AS answer_source_id, o.source_id AS other_source_id,
        100.0 * abs(o.total_ns - r.total_ns) / max(abs(r.total_ns), 1) AS differs_pct
    FROM held AS o
    JOIN answer AS r ON r.run_id = o.run_id AND r.rank_id = o.rank_id AND r.op_type = o.op_type
        AND r.source_id <> o.source_id
)
SELECT run_id, rank_id, op_type, answer_count, other_count, answer_ns, other_ns, differs_pct, answer_source_id,
    other_source_id
FROM compared
WHERE answer_count IS NOT other_count OR (abs(answer_ns - other_ns) > 1000 AND differs_pct > 1)
ORDER BY differs_pct DESC, run_id, rank_id, op_type
