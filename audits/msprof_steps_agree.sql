-- Reconciliation: the steps of a CANN msprof folder (table step: step_trace_*.json's Iteration
-- Time events) agree with the same iterations in its msprof_* timeline ('Iteration N' slices of
-- the same run and rank), and the length the warehouse derives from the device rows
-- (step_breakdown: the host step's start to the last device activity) with the profiler's
-- iteration time. Lists each step whose start or length differs from its timeline iteration by
-- more than 1 us, or whose derived length differs from the iteration time by more than 1% (and
-- 1 us). A folder without an msprof_* timeline, or a step without device rows, has nothing to
-- compare. Every disagreeing step is shown, the largest disagreement first.
-- examples: 200
WITH steps AS (
    SELECT src.run_id, st.rank_id, st.step_id, st.source_id, st.start_ns, st.end_ns - st.start_ns AS dur_ns
    FROM step AS st
    JOIN source AS src ON src.id = st.source_id AND src.status = 'ok' AND src.kind = 'msprof_timeline'
),
pairs AS (
    SELECT
        s.run_id, s.rank_id, s.step_id, s.source_id, s.start_ns, s.dur_ns,
        (SELECT min(sl.ts) FROM slice AS sl JOIN source AS o ON o.id = sl.source_id
         WHERE o.run_id = s.run_id AND o.rank_id = s.rank_id AND o.kind = 'msprof_timeline'
           AND sl.name = 'Iteration ' || s.step_id) AS timeline_start_ns,
        (SELECT min(sl.dur) FROM slice AS sl JOIN source AS o ON o.id = sl.source_id
         WHERE o.run_id = s.run_id AND o.rank_id = s.rank_id AND o.kind = 'msprof_timeline'
           AND sl.name = 'Iteration ' || s.step_id) AS timeline_dur_ns,
        b.preparing_ns + b.stage_ns + b.bubble_ns AS derived_dur_ns
    FROM steps AS s
    -- a step with device rows (a breakdown of a step without any is all zeros: nothing to compare)
    LEFT JOIN step_breakdown AS b ON b.run_id = s.run_id AND b.rank_id = s.rank_id AND b.step_id = s.step_id
        AND b.computing_ns + b.communication_ns > 0
)
SELECT
    run_id, rank_id, step_id, source_id, start_ns, timeline_start_ns, dur_ns AS iteration_ns, timeline_dur_ns,
    derived_dur_ns, round(100.0 * (derived_dur_ns - dur_ns) / nullif(dur_ns, 0), 2) AS derived_differs_pct
FROM pairs
WHERE abs(start_ns - timeline_start_ns) > 1000
   OR abs(dur_ns - timeline_dur_ns) > 1000
   OR (abs(derived_dur_ns - dur_ns) > 1000 AND abs(derived_dur_ns - dur_ns) > 0.01 * dur_ns)
ORDER BY max(abs(coalesce(derived_dur_ns, dur_ns) - dur_ns), abs(coalesce(timeline_dur_ns, dur_ns) - dur_ns),
             abs(coalesce(timeline_start_ns, start_ns) - start_ns)) * 1.0 / nullif(dur_ns, 0) DESC,
         run_id, rank_id, step_id
