-- The flow events of the trace just read, each bound to a slice of its thread, in the order
-- the pairing walks them: by (category, flow_key), then time (s before t before f at equal ts),
-- which is the staging table's primary key (no sort).
-- enclosing = 1 binds to the deepest slice containing ts. Slices nest, so that slice is the
-- latest-starting slice at or before ts (one seek on the (thread_id, ts, dur) index, deepest
-- first among equal starts) or one of its ancestors: climb parent_id until a slice covers ts.
-- enclosing = 0 binds to the first slice starting at or after ts. NULL when none does.
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
                WITH RECURSIVE climb (id, ts, dur, parent_id) AS (
                    SELECT latest.id, latest.ts, latest.dur, latest.parent_id
                    FROM (
                        SELECT s.id, s.ts, s.dur, s.parent_id
                        FROM _slice AS s
                        WHERE s.thread_id = e.thread_id
                          AND s.ts <= e.ts
                        ORDER BY s.ts DESC, s.depth DESC
                        LIMIT 1
                    ) AS latest
                    UNION ALL
                    SELECT p.id, p.ts, p.dur, p.parent_id
                    FROM climb
                    JOIN _slice AS p ON p.id = climb.parent_id
                    WHERE NOT (climb.ts + climb.dur > e.ts OR climb.ts = e.ts)
                )
                SELECT id
                FROM climb
                WHERE ts + dur > e.ts OR ts = e.ts
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
),
final AS (
    SELECT category, flow_key, phase, name, slice_id
    FROM bound
)
SELECT category, flow_key, phase, name, slice_id
FROM final
