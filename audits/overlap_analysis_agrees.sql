-- Reconciliation: the profiler's own overlap analysis (overlap_interval: OVERLAP_ANALYSIS of a
-- CANN msprof db or of a db export MindStudio Insight opened) agrees with the breakdown the
-- warehouse derives from the rows (step_breakdown) for the same run, rank and step. Per step,
-- each type's intervals are summed over the step's device window as step_breakdown measures it
-- (from the step's first to its last counted device activity, step_activity: the kernels and HCCL
-- rows of the step's span, step_span), an interval crossing the window's edge counting its part
-- inside: so the profiler's free time between two steps' windows belongs to neither, as in the
-- derived free. Lists each figure (computing, communication, communication not overlapped, free)
-- that differs by more than 1% of the profiler's and by more than 1 us. A step without device
-- rows, or without the profiler's intervals in its window, has nothing to compare. Every
-- disagreeing figure is shown, the largest disagreement (relative to the profiler's figure) first.
-- examples: 200
WITH windows AS (
    SELECT run_id, rank_id, step_id, min(lo) AS first_ns, max(hi) AS last_ns
    FROM step_activity
    WHERE counted = 1
    GROUP BY run_id, rank_id, step_id
),
inputs AS (
    SELECT o.source_id, s.run_id, o.rank_id, max(o.dur) AS longest_ns
    FROM overlap_interval AS o
    JOIN source AS s ON s.id = o.source_id AND s.status = 'ok'
    WHERE NOT EXISTS (SELECT 1 FROM source_twin AS t WHERE t.source_id = o.source_id)
    GROUP BY o.source_id, s.run_id, o.rank_id
),
clipped AS (
    -- the part of each interval inside each window it crosses (an interval crossing the window's
    -- start starts at most longest_ns before it: the bound keeps the (source_id, ts) index range short)
    SELECT
        i.run_id, i.rank_id, w.step_id, i.source_id, o.type,
        min(o.ts + o.dur, w.last_ns) - max(o.ts, w.first_ns) AS part_ns
    FROM inputs AS i
    JOIN windows AS w ON w.run_id = i.run_id AND w.rank_id = i.rank_id
    CROSS JOIN overlap_interval AS o ON o.source_id = i.source_id
        AND o.ts < w.last_ns AND o.ts > w.first_ns - i.longest_ns AND o.ts + o.dur > w.first_ns
),
pairs AS (
    SELECT
        c.run_id, c.rank_id, c.step_id, c.source_id,
        sum(CASE WHEN c.type = 'computing' THEN c.part_ns ELSE 0 END) AS p_computing, d.computing_ns AS d_computing,
        sum(CASE WHEN c.type = 'communication' THEN c.part_ns ELSE 0 END) AS p_communication,
        d.communication_ns AS d_communication,
        sum(CASE WHEN c.type = 'communication_not_overlapped' THEN c.part_ns ELSE 0 END) AS p_not_overlapped,
        d.communication_not_overlapped_ns AS d_not_overlapped,
        sum(CASE WHEN c.type = 'free' THEN c.part_ns ELSE 0 END) AS p_free, d.free_ns AS d_free
    FROM clipped AS c
    JOIN step_breakdown AS d ON d.run_id = c.run_id AND d.rank_id = c.rank_id AND d.step_id = c.step_id
    GROUP BY c.run_id, c.rank_id, c.step_id, c.source_id
),
figures AS (
    SELECT run_id, rank_id, step_id, source_id, 'computing_ns' AS figure, p_computing AS profiler_value, d_computing AS derived_value FROM pairs
    UNION ALL SELECT run_id, rank_id, step_id, source_id, 'communication_ns', p_communication, d_communication FROM pairs
    UNION ALL SELECT run_id, rank_id, step_id, source_id, 'communication_not_overlapped_ns', p_not_overlapped, d_not_overlapped FROM pairs
    UNION ALL SELECT run_id, rank_id, step_id, source_id, 'free_ns', p_free, d_free FROM pairs
)
SELECT
    run_id, rank_id, step_id, source_id, figure, profiler_value, derived_value,
    round(100.0 * (derived_value - profiler_value) / nullif(profiler_value, 0), 2) AS differs_pct
FROM figures
WHERE abs(derived_value - profiler_value) > 1000
  AND abs(derived_value - profiler_value) > 0.01 * abs(profiler_value)
ORDER BY abs(derived_value - profiler_value) * 1.0 / max(abs(profiler_value), 1) DESC, run_id, rank_id, step_id, figure
