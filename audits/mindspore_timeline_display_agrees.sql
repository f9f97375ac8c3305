-- Reconciliation: MindSpore's timeline of one run and device (ascend_timeline_display_{device}.json: its
-- operators, the slices whose args name a fullname) agrees with the kernel timeline it is generated from
-- (output_timeline_data_{device}.txt: kernel rows of kind mindspore_timeline_txt): on each stream (the
-- display's thread, the kernel's stream_id), the n-th operator of the display is the n-th kernel, of the
-- same name (the operator's own name, its scope left out by both) and the same duration (to 10 ns: the display writes us as floats), and is as far from the
-- stream's first operator as the kernel is from the stream's first kernel (to 10 ns). The display's clock
-- starts at its earliest event, the kernels' at the device's, so starts are compared from each stream's
-- first. Lists each operator that differs or that one of them lacks; a run and device holding only one of
-- the two has nothing to compare.
-- examples: 200
WITH display AS (
    SELECT
        s.run_id, s.rank_id, s.id AS source_id, t.tid AS stream, sl.name, sl.dur, sl.ts - min(sl.ts) OVER stream AS offset_ns,
        row_number() OVER (stream ORDER BY sl.ts, sl.id) AS place
    FROM source AS s
    JOIN slice AS sl ON sl.source_id = s.id
    JOIN thread AS t ON t.id = sl.thread_id
    WHERE s.kind = 'mindspore_timeline_json' AND s.status = 'ok' AND json_valid(sl.args)
        AND json_extract(sl.args, '$.fullname') IS NOT NULL
    WINDOW stream AS (PARTITION BY s.id, t.tid)
),
timeline AS (
    SELECT
        s.run_id, k.rank_id, k.source_id, CAST(k.stream_id AS TEXT) AS stream, k.name, k.dur,
        k.ts - min(k.ts) OVER stream AS offset_ns,
        row_number() OVER (stream ORDER BY k.ts, k.source_row) AS place
    FROM kernel AS k
    JOIN source AS s ON s.id = k.source_id AND s.status = 'ok' AND s.kind = 'mindspore_timeline_txt'
    WINDOW stream AS (PARTITION BY k.source_id, k.stream_id)
),
pairs AS (
    SELECT DISTINCT d.run_id, d.rank_id, d.source_id AS display_source_id, k.source_id AS timeline_source_id
    FROM display AS d
    JOIN timeline AS k ON k.run_id = d.run_id AND k.rank_id = d.rank_id
),
compared AS (
    SELECT
        p.run_id, p.rank_id, d.stream, d.place, d.name AS display_name, k.name AS timeline_name,
        d.dur AS display_dur, k.dur AS timeline_dur, p.display_source_id, p.timeline_source_id,
        CASE
            WHEN k.place IS NULL THEN 'missing from the kernel timeline'
            WHEN k.name IS NOT d.name THEN 'name'
            WHEN abs(k.dur - d.dur) > 10 THEN 'dur'
            WHEN abs(k.offset_ns - d.offset_ns) > 10 THEN 'start'
        END AS differs
    FROM pairs AS p
    JOIN display AS d ON d.source_id = p.display_source_id
    LEFT JOIN timeline AS k ON k.source_id = p.timeline_source_id AND k.stream = d.stream AND k.place = d.place
    UNION ALL
    SELECT
        p.run_id, p.rank_id, k.stream, k.place, NULL, k.name, NULL, k.dur, p.display_source_id, p.timeline_source_id,
        'missing from the display'
    FROM pairs AS p
    JOIN timeline AS k ON k.source_id = p.timeline_source_id
    WHERE NOT EXISTS (
        SELECT 1 FROM display AS d WHERE d.source_id = p.display_source_id AND d.stream = k.stream AND d.place = k.place
    )
)
SELECT run_id, rank_id, stream, place, differs, display_name, timeline_name, display_dur, timeline_dur,
    display_source_id, timeline_source_id
FROM compared
WHERE differs IS NOT NULL
ORDER BY run_id, rank_id, stream, place
