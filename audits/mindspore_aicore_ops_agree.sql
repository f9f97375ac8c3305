-- Reconciliation: MindSpore's AI Core time per operator of one run and device, from every file that gives it,
-- agrees with the file that answers (answer_source, fact aicore_op: aicore_intermediate_{device}_detail.csv,
-- else the older profiler's output_op_compute_time_{device}.txt, else the operators of its
-- output_op_compute_time_detail_{device}.txt): an operator both name by its full name has the same mean time,
-- within 1 % or 1 us (the detail file's tabulate layout keeps six digits). Lists each operator whose time
-- differs. An operator only one of them names is not compared (MindInsight's run_1 keeps the AI Core CSV of
-- one network beside the compute time tables of another: they share no full name), nor one of the older
-- detail layout, which gives no full name (a name without its scope recurs across networks: run_1's
-- MatMul-op95 is LeNet5's in the CSV and WideDeep's in the detail file).
-- examples: 200
WITH held AS (
    SELECT
        o.source_id, o.rank_id, o.full_name, o.time_ns, s.run_id
    FROM mindspore_aicore_op AS o
    JOIN source AS s ON s.id = o.source_id AND s.status = 'ok'
    WHERE o.full_name IS NOT NULL
),
answer AS (
    SELECT h.*
    FROM held AS h
    JOIN answer_source AS a ON a.source_id = h.source_id AND a.fact = 'aicore_op'
),
compared AS (
    SELECT
        o.run_id, o.rank_id, r.full_name, r.time_ns AS answer_ns, o.time_ns AS other_ns,
        r.source_id AS answer_source_id, o.source_id AS other_source_id,
        100.0 * abs(o.time_ns - r.time_ns) / max(abs(r.time_ns), 1) AS differs_pct
    FROM held AS o
    JOIN answer AS r ON r.run_id = o.run_id AND r.rank_id = o.rank_id AND r.source_id <> o.source_id
        AND r.full_name = o.full_name
)
SELECT run_id, rank_id, full_name, answer_ns, other_ns, differs_pct, answer_source_id, other_source_id
FROM compared
WHERE abs(answer_ns - other_ns) > 1000 AND differs_pct > 1
ORDER BY differs_pct DESC, run_id, rank_id, full_name
