-- description: The step markers of each rank (the step table's rows), each saying whether the
--     profiler's own summary answers for its rank (summary_answer): the derived breakdown of
--     those steps is read by the reconciliation only, so the answers never compute it.
-- column rank_id: Rank the step ran on (-1 when unknown).
-- column step_id: Step number as the profiler numbers it.
-- column start_ns: Start of the step in ns.
-- column end_ns: End of the step in ns.
-- column source_id: Input the step came from.
-- column summarized: 1 when the profiler's step summary answers for the rank of the step's run,
--     else 0.
SELECT
    st.rank_id, st.step_id, st.start_ns, st.end_ns, st.source_id,
    CASE WHEN EXISTS (
        SELECT 1 FROM summary_answer AS sa JOIN source AS s ON s.id = st.source_id
        WHERE sa.run_id = s.run_id AND sa.rank_id = st.rank_id AND sa.fact = 'step_summary'
    ) THEN 1 ELSE 0 END AS summarized
FROM step AS st
