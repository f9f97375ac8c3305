-- description: The step breakdown that answers for every step of every rank of every run
--     (the profiler's own summary where one answers for the rank, else step_breakdown), staged
--     ranks included.
-- column run_id: Run.
-- column rank_id: Rank (-1 where the input leaves it unset).
-- column step_id: Step number as the profiler numbers it.
-- column start_ns: Start of the step in ns.
-- column end_ns: End of the step in ns.
-- column duration_ns: Step duration in ns: a MindSpore step's time as its step trace gives it
--     (mindspore_step_phase.total_ns, what MindInsight shows), else preparing + stage + bubble, as
--     torch_npu's step trace adds it; null with every other figure of a step in which the rank's
--     inputs hold no device activity (unknown).
-- column computing_ns: Computing time in ns (Computing).
-- column communication_not_overlapped_ns: Communication not hidden by computing, in ns
--     (Communication(Not Overlapped)).
-- column overlapped_ns: Communication hidden by computing, in ns (Overlapped).
-- column communication_ns: All communication time in ns (Communication).
-- column free_ns: Idle time in ns (Free).
-- column preparing_ns: Preparation time before the first kernel, in ns (Preparing), when given.
-- column stage_ns: Stage time in ns (Stage).
-- column bubble_ns: Pipeline bubble in ns (Bubble).
-- column basis: Where the figures come from: the answering summary's input format, or 'derived'
--     from the rows (step_breakdown).
WITH answered AS (
    SELECT
        s.run_id, s.rank_id, s.step_id, d.start_ns, d.end_ns, s.computing_ns, s.communication_not_overlapped_ns,
        s.overlapped_ns, s.communication_ns, s.free_ns, coalesce(s.preparing_ns, 0) AS preparing_ns, s.stage_ns,
        s.bubble_ns, s.kind AS basis
    FROM step_summary AS s
    LEFT JOIN (
        SELECT a.run_id, m.rank_id, m.step_id, m.start_ns, m.end_ns
        FROM step_marker AS m
        JOIN step_source AS a ON a.source_id = m.source_id
        UNION ALL
        SELECT run_id, rank_id, step_id, start_ns, end_ns FROM staged_step_marker
    ) AS d ON d.run_id = s.run_id AND d.rank_id = s.rank_id AND d.step_id = s.step_id
    UNION ALL
    -- include: _derived_step_breakdown
    FROM step_breakdown AS d
    WHERE d.summarized = 0
    UNION ALL
    -- include: _derived_step_breakdown
    FROM staged_step_marker AS d
    WHERE d.summarized = 0
)
SELECT
    a.run_id, a.rank_id, a.step_id, a.start_ns, a.end_ns,
    CASE
        WHEN m.total_ns IS NOT NULL THEN m.total_ns
        WHEN a.computing_ns IS NOT NULL
            THEN coalesce(a.preparing_ns, 0) + coalesce(a.stage_ns, 0) + coalesce(a.bubble_ns, 0)
    END AS duration_ns,
    a.computing_ns, a.communication_not_overlapped_ns, a.overlapped_ns, a.communication_ns, a.free_ns,
    a.preparing_ns, a.stage_ns, a.bubble_ns, a.basis
FROM answered AS a
LEFT JOIN mindspore_step_phase AS m ON m.run_id = a.run_id AND m.rank_id = a.rank_id AND m.step_id = a.step_id
