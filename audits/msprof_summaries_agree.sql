-- Reconciliation: a CANN msprof folder's inputs that give the same fact as the one answering it
-- agree with it (one fact, one source: fact_precedence). In a run holding an msprof timeline or
-- summary input (msprof_timeline, task_time_csv, msprof_step_trace_csv): the compute kernels
-- (op_class.is_compute) of each other kernel input of a rank (its msprof db, op_summary_*.csv,
-- timeline JSONs, task_time_*.csv; the inputs of one kind together) against the answering
-- kernels (kernel_answer): the same number, and their total time within 0.1% (and 1 us); each
-- step row of another input (step_trace_*.csv beside the timeline's step_trace_*.json) against
-- the answering step of its number (step_source): there is one, and it starts and lasts the same
-- within 1 us. HCCL's tasks, synchronisation and data movement are not compared: the timeline
-- leaves the tasks of HCCL's streams to its HCCL tasks and op_summary leaves some task types out.
-- Every disagreement is shown, the largest (relative to the answer) first.
-- examples: 200
WITH prof_run AS (
    SELECT DISTINCT run_id FROM source
    WHERE status = 'ok' AND kind IN ('msprof_timeline', 'task_time_csv', 'msprof_step_trace_csv')
),
answered AS (
    SELECT k.run_id, k.rank_id, min(k.origin) AS kind, count(*) AS kernels, coalesce(sum(k.dur), 0) AS total_ns
    FROM kernel_answer AS k
    JOIN prof_run AS r ON r.run_id = k.run_id
    JOIN op_class AS c ON c.op_class = k.op_class AND c.is_compute = 1
    GROUP BY k.run_id, k.rank_id
),
given AS (
    SELECT s.run_id, k.rank_id, s.kind, min(s.id) AS source_id, count(*) AS kernels,
        coalesce(sum(k.dur), 0) AS total_ns
    FROM kernel AS k
    JOIN source AS s ON s.id = k.source_id AND s.status = 'ok'
    JOIN prof_run AS r ON r.run_id = s.run_id
    JOIN op_class AS c ON c.op_class = k.op_class AND c.is_compute = 1
    WHERE NOT EXISTS (SELECT 1 FROM answer_source AS a WHERE a.source_id = s.id AND a.fact = 'kernel')
    GROUP BY s.run_id, k.rank_id, s.kind
),
kernel_pairs AS (
    SELECT
        g.run_id, g.rank_id, 'kernel' AS fact, NULL AS step_id, g.kind, g.source_id, a.kind AS answer_kind,
        g.kernels AS count, coalesce(a.kernels, 0) AS answer_count, NULL AS start_ns, NULL AS answer_start_ns,
        g.total_ns, coalesce(a.total_ns, 0) AS answer_total_ns
    FROM given AS g
    LEFT JOIN answered AS a ON a.run_id = g.run_id AND a.rank_id = g.rank_id
),
step_pairs AS (
    SELECT
        s.run_id, st.rank_id, 'step' AS fact, st.step_id, s.kind, s.id AS source_id, w.kind AS answer_kind,
        1 AS count, count(a.step_id) AS answer_count, st.start_ns, min(a.start_ns) AS answer_start_ns,
        st.end_ns - st.start_ns AS total_ns, min(a.end_ns - a.start_ns) AS answer_total_ns
    FROM step AS st
    JOIN source AS s ON s.id = st.source_id AND s.status = 'ok'
    JOIN prof_run AS r ON r.run_id = s.run_id
    JOIN step_source AS w ON w.run_id = s.run_id AND w.rank_id = st.rank_id AND w.source_id <> s.id
    LEFT JOIN step AS a ON a.source_id = w.source_id AND a.rank_id = st.rank_id AND a.step_id = st.step_id
    WHERE NOT EXISTS (SELECT 1 FROM step_source AS o WHERE o.source_id = s.id)
    GROUP BY s.run_id, st.rank_id, st.step_id, s.kind, s.id, w.kind, st.start_ns, st.end_ns
),
pairs AS (
    SELECT * FROM kernel_pairs
    UNION ALL
    SELECT * FROM step_pairs
)
SELECT
    run_id, rank_id, fact, step_id, kind, source_id, answer_kind, count, answer_count, start_ns, answer_start_ns,
    total_ns, answer_total_ns,
    round(100.0 * (total_ns - answer_total_ns) / nullif(answer_total_ns, 0), 3) AS differs_pct
FROM pairs
WHERE count <> answer_count
   OR (fact = 'kernel' AND abs(total_ns - answer_total_ns) > 1000
       AND abs(total_ns - answer_total_ns) > 0.001 * answer_total_ns)
   OR (fact = 'step' AND (abs(total_ns - answer_total_ns) > 1000 OR abs(start_ns - answer_start_ns) > 1000))
ORDER BY abs(count - answer_count) DESC,
         max(abs(total_ns - coalesce(answer_total_ns, 0)), abs(coalesce(start_ns, 0) - coalesce(answer_start_ns, 0)))
             * 1.0 / coalesce(nullif(answer_total_ns, 0), 1) DESC,
         run_id, rank_id, fact, step_id, kind
