-- Reconciliation: the step breakdown the warehouse derives from the rows (step_breakdown)
-- agrees with every summary the profiler wrote for the same run, rank and step (analysis.db
-- StepTraceTime, step_trace_time.csv, cluster_step_trace_time.csv). Lists each figure that
-- differs by more than 1% of the profiler's (and by more than 1 us: the text export's float
-- microseconds resolve only 0.25 us at epoch times). Steps with no derived breakdown (no step
-- markers or no device rows) have nothing to compare. Every disagreeing figure is shown, the
-- largest disagreement (relative to the profiler's figure) first.
-- examples: 200
WITH pairs AS (
    SELECT
        s.run_id, t.rank_id, t.step_id, s.kind, t.source_id, t.source_row,
        t.computing_ns AS p_computing, d.computing_ns AS d_computing,
        t.communication_not_overlapped_ns AS p_not_overlapped, d.communication_not_overlapped_ns AS d_not_overlapped,
        t.overlapped_ns AS p_overlapped, d.overlapped_ns AS d_overlapped,
        t.communication_ns AS p_communication, d.communication_ns AS d_communication,
        t.free_ns AS p_free, d.free_ns AS d_free,
        t.stage_ns AS p_stage, d.stage_ns AS d_stage,
        t.bubble_ns AS p_bubble, d.bubble_ns AS d_bubble,
        t.preparing_ns AS p_preparing, d.preparing_ns AS d_preparing
    FROM step_trace_time AS t
    JOIN source AS s ON s.id = t.source_id AND s.status = 'ok'
    JOIN step_breakdown AS d ON d.run_id = s.run_id AND d.rank_id = t.rank_id AND d.step_id = t.step_id
    WHERE t.scope = 'rank'
),
figures AS (
    SELECT run_id, rank_id, step_id, kind, source_id, source_row, 'computing_ns' AS figure, p_computing AS profiler_value, d_computing AS derived_value FROM pairs
    UNION ALL SELECT run_id, rank_id, step_id, kind, source_id, source_row, 'communication_not_overlapped_ns', p_not_overlapped, d_not_overlapped FROM pairs
    UNION ALL SELECT run_id, rank_id, step_id, kind, source_id, source_row, 'overlapped_ns', p_overlapped, d_overlapped FROM pairs
    UNION ALL SELECT run_id, rank_id, step_id, kind, source_id, source_row, 'communication_ns', p_communication, d_communication FROM pairs
    UNION ALL SELECT run_id, rank_id, step_id, kind, source_id, source_row, 'free_ns', p_free, d_free FROM pairs
    UNION ALL SELECT run_id, rank_id, step_id, kind, source_id, source_row, 'stage_ns', p_stage, d_stage FROM pairs
    UNION ALL SELECT run_id, rank_id, step_id, kind, source_id, source_row, 'bubble_ns', p_bubble, d_bubble FROM pairs
    UNION ALL SELECT run_id, rank_id, step_id, kind, source_id, source_row, 'preparing_ns', p_preparing, d_preparing FROM pairs
)
SELECT
    run_id, rank_id, step_id, kind AS profiler_input, source_id, source_row, figure, profiler_value, derived_value,
    round(100.0 * (derived_value - profiler_value) / profiler_value, 2) AS differs_pct
FROM figures
WHERE profiler_value IS NOT NULL
  AND abs(derived_value - profiler_value) > 1000
  AND abs(derived_value - profiler_value) > 0.01 * abs(profiler_value)
ORDER BY abs(derived_value - profiler_value) * 1.0 / abs(profiler_value) DESC, run_id, rank_id, step_id, figure
