-- description: The step breakdown that answers for every step of every rank of every run
--     (the profiler's own summary where one answers for the rank, else step_breakdown), staged
--     ranks included.
-- column run_id: Run.
-- column rank_id: Rank (-1 where the input leaves it unset).
-- column step_id: Step number as the profiler numbers it.
-- column start_ns: Start of the step in ns.
-- column end_ns: End of the step in ns.
-- column duration_ns: Step duration in ns: preparing + stage + bubble, as the profiler adds it.
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
    run_id, rank_id, step_id, start_ns, end_ns,
    coalesce(preparing_ns, 0) + coalesce(stage_ns, 0) + coalesce(bubble_ns, 0) AS duration_ns,
    computing_ns, communication_not_overlapped_ns, overlapped_ns, communication_ns, free_ns, preparing_ns,
    stage_ns, bubble_ns, basis
FROM answered
