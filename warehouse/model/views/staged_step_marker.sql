-- description: The staged steps of each rank of each run (staged_step of the input answering
--     the rank's timeline), each saying whether the profiler's own summary answers for its
--     rank, as step_marker does.
-- column run_id: Run.
-- column rank_id: Rank.
-- column step_id: Step number.
-- column start_ns: Host start of the step (the profiler's step marker), in ns.
-- column end_ns: Host end of the step, in ns.
-- column computing_ns: Time some compute kernel ran, in ns (Computing).
-- column communication_not_overlapped_ns: Communication not overlapped by compute, in ns
--     (Communication(Not Overlapped)).
-- column overlapped_ns: Communication overlapped by compute, in ns (Overlapped).
-- column communication_ns: Time some communication ran, in ns (Communication).
-- column free_ns: Gaps between the first and the last device activity, in ns (Free).
-- column stage_ns: First to last device activity less the bubble, in ns (Stage).
-- column bubble_ns: Receive operators (hcom_receive*), in ns (Bubble).
-- column preparing_ns: Host step start to the first device activity, in ns (Preparing).
-- column summarized: 1 when the profiler's step summary answers for the rank, else 0.
SELECT
    a.run_id, st.rank_id, st.step_id, st.start_ns, st.end_ns, st.computing_ns, st.communication_not_overlapped_ns,
    st.overlapped_ns, st.communication_ns, st.free_ns, st.stage_ns, st.bubble_ns, st.preparing_ns,
    CASE WHEN EXISTS (
        SELECT 1 FROM summary_answer AS sa
        WHERE sa.run_id = a.run_id AND sa.rank_id = st.rank_id AND sa.fact = 'step_summary'
    ) THEN 1 ELSE 0 END AS summarized
FROM staged_step AS st
JOIN answer_source AS a ON a.source_id = st.source_id AND a.fact = 'timeline'
