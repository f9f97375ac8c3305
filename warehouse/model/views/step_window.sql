-- description: Step windows per run and rank: the step table's rows of the input whose steps
--     answer (step_source), and for a rank without step rows one window over all its answering
--     kernels (step_id -1: the whole capture).
-- column run_id: Run.
-- column rank_id: Rank the step ran on (-1 when unknown).
-- column step_id: Step number as the profiler numbers it.
-- column start_ns: Start of the step in ns.
-- column end_ns: End of the step in ns.
-- column source_id: Input the step came from.
SELECT a.run_id, st.rank_id, st.step_id, st.start_ns, st.end_ns, st.source_id
FROM step AS st
JOIN step_source AS a ON a.source_id = st.source_id
UNION ALL
SELECT a.run_id, k.rank_id, -1 AS step_id, min(k.ts) AS start_ns, max(k.ts + k.dur) AS end_ns, min(k.source_id) AS source_id
FROM kernel AS k
JOIN answer_source AS a ON a.source_id = k.source_id AND a.fact = 'kernel'
WHERE NOT EXISTS (SELECT 1 FROM step_source AS t WHERE t.run_id = a.run_id AND t.rank_id = k.rank_id)
GROUP BY a.run_id, k.rank_id
