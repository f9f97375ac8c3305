-- Reconciliation: MindSpore's kernels of one run and device read from the raw HWTS log and its Framework
-- files (kernel.origin mindspore_hwts, which answer: answer_source, fact kernel) agree with MindSpore's own
-- kernel timeline of them (output_timeline_data_{device}.txt, its join of the log's text dump with the
-- framework description): each timeline kernel is the raw kernel of the same stream and start, of the
-- same name and duration (to 10 ns, a counter cycle), and each raw kernel is on the timeline. Lists each
-- kernel that differs or that one of the two lacks; a run and device holding only one of the two has
-- nothing to compare.
-- examples: 200
WITH answer AS (
    SELECT k.*, a.run_id
    FROM kernel AS k
    JOIN answer_source AS a ON a.source_id = k.source_id AND a.fact = 'kernel' AND a.kind = 'mindspore_hwts_raw'
),
timeline AS (
    SELECT k.*, s.run_id
    FROM kernel AS k
    JOIN source AS s ON s.id = k.source_id AND s.status = 'ok' AND s.kind = 'mindspore_timeline_txt'
    WHERE EXISTS (SELECT 1 FROM answer AS r WHERE r.run_id = s.run_id AND r.rank_id = k.rank_id)
),
compared AS (
    SELECT
        t.run_id, t.rank_id, t.stream_id, t.ts, t.name AS timeline_name, r.name AS raw_name,
        t.source_id AS timeline_source_id, r.source_id AS raw_source_id,
        CASE
            WHEN r.id IS NULL THEN 'missing from the raw kernels'
            WHEN t.name IS NOT r.name THEN 'name'
            WHEN abs(t.dur - r.dur) > 10 THEN 'dur'
        END AS differs
    FROM timeline AS t
    LEFT JOIN answer AS r ON r.run_id = t.run_id AND r.rank_id = t.rank_id AND r.stream_id = t.stream_id AND r.ts = t.ts
    UNION ALL
    SELECT r.run_id, r.rank_id, r.stream_id, r.ts, NULL, r.name, d.source_id, r.source_id, 'missing from the timeline'
    FROM answer AS r
    JOIN (SELECT DISTINCT source_id, run_id, rank_id FROM timeline) AS d ON d.run_id = r.run_id AND d.rank_id = r.rank_id
    WHERE NOT EXISTS (
        SELECT 1 FROM timeline AS t WHERE t.source_id = d.source_id AND t.stream_id = r.stream_id AND t.ts = r.ts
    )
)
SELECT run_id, rank_id, stream_id, ts, differs, timeline_name, raw_name, timeline_source_id, raw_source_id
FROM compared
WHERE differs IS NOT NULL
ORDER BY run_id, rank_id, ts, stream_id, timeline_source_id
