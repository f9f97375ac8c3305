-- The flow events of the trace just read, each bound to a slice of its thread, in the order
-- the pairing walks them: by (category, flow_key), then time (s before t before f at equal ts),
-- which is the staging table's primary key (no sort).
-- enclosing = 1 binds to the deepest slice containing ts: walk the (thread_id, ts, dur) index
-- back from ts (at most the thread's max_dur) to the latest-starting slice that still covers
-- ts. enclosing = 0 binds to the first slice starting at or after ts. NULL when none does.
WITH bound AS (
    SELECT
        e.category,
        e.flow_key,
        e.phase,
        e.name,
        e.ts,
        e.source_row,
        CASE
            WHEN e.enclosing = 1 THEN (
                SELECT s.id
                FROM _slice AS s
                WHERE s.thread_id = e.thread_id
                  AND s.ts <= e.ts
                  AND s.ts >= e.ts - t.max_dur
                  AND (s.ts + s.dur > e.ts OR s.ts = e.ts)
                ORDER BY s.ts DESC, s.depth DESC
                LIMIT 1
            )
            ELSE (
                SELECT s.id
                FROM _slice AS s
                WHERE s.thread_id = e.thread_id
                  AND s.ts >= e.ts
                ORDER BY s.ts, s.depth
                LIMIT 1
            )
        END AS slice_id
    FROM _trace_flow_event AS e
    JOIN thread AS t ON t.id = e.thread_id
),
final AS (
    SELECT category, flow_key, phase, name, slice_id
    FROM bound
    ORDER BY category, flow_key, ts, phase, source_row
)
SELECT category, flow_key, phase, name, slice_id
FROM final
