-- Reconciliation: MindSpore's own kernel timeline of one run and device (output_timeline_data_{device}.txt, its
-- join of the HWTS log's text dump with the framework description) agrees with the device's HWTS tasks (the
-- input that answers them: answer_source, fact hwts_task, the raw hwts.log.data.45.* log, else its text dump)
-- and, where the raw log answers, with the kernels its Framework files name (kernel.origin mindspore_hwts):
-- each timeline kernel is the task of the same stream and start, of the same duration (to 10 ns, a counter
-- cycle), named by the framework as the timeline names it; each named task of the raw log is on the
-- timeline. Lists each kernel that differs or that one of them lacks; a run and device without HWTS tasks
-- has nothing to compare.
-- examples: 200
WITH tasks AS (
    SELECT t.*, a.run_id, a.kind
    FROM mindspore_hwts_task AS t
    JOIN answer_source AS a ON a.source_id = t.source_id AND a.fact = 'hwts_task'
),
timeline AS (
    SELECT k.*, s.run_id
    FROM kernel AS k
    JOIN source AS s ON s.id = k.source_id AND s.status = 'ok' AND s.kind = 'mindspore_timeline_txt'
    WHERE EXISTS (SELECT 1 FROM tasks AS t WHERE t.run_id = s.run_id AND t.rank_id = k.rank_id)
),
named AS (
    SELECT k.*, t.run_id
    FROM kernel AS k
    JOIN tasks AS t ON t.source_id = k.source_id AND t.source_row = k.source_row
    WHERE k.origin = 'mindspore_hwts'
),
compared AS (
    SELECT
        k.run_id, k.rank_id, k.stream_id, k.ts, k.name AS timeline_name, r.name AS raw_name,
        k.source_id AS timeline_source_id, t.source_id AS task_source_id,
        CASE
            WHEN t.source_id IS NULL THEN 'not a task of the HWTS log'
            WHEN abs(t.end_ns - t.start_ns - k.dur) > 10 THEN 'dur'
            WHEN t.kind = 'mindspore_hwts_raw' AND r.id IS NULL THEN 'not named by the framework files'
            WHEN t.kind = 'mindspore_hwts_raw' AND r.name IS NOT k.name THEN 'name'
        END AS differs
    FROM timeline AS k
    LEFT JOIN tasks AS t ON t.run_id = k.run_id AND t.rank_id = k.rank_id AND t.stream_id = k.stream_id
        AND t.start_ns = k.ts
    LEFT JOIN named AS r ON r.source_id = t.source_id AND r.source_row = t.source_row
    UNION ALL
    SELECT r.run_id, r.rank_id, r.stream_id, r.ts, NULL, r.name, d.source_id, r.source_id, 'missing from the timeline'
    FROM named AS r
    JOIN (SELECT DISTINCT source_id, run_id, rank_id FROM timeline) AS d
        ON d.run_id = r.run_id AND d.rank_id = r.rank_id
    WHERE NOT EXISTS (
        SELECT 1 FROM timeline AS k WHERE k.source_id = d.source_id AND k.stream_id = r.stream_id AND k.ts = r.ts
    )
)
SELECT run_id, rank_id, stream_id, ts, differs, timeline_name, raw_name, timeline_source_id, task_source_id
FROM compared
WHERE differs IS NOT NULL
ORDER BY run_id, rank_id, ts, stream_id, timeline_source_id
