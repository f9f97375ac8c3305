-- The flow events of the trace just read, each bound to a slice of its thread, written to
-- trace_flows._trace_flow_bound in the order the pairing (pair_flows.sql) walks them: by
-- (category, flow_key), then time (s before t before f at equal ts), which is the staging
-- table's primary key (no sort), so the bound table's rowid follows that order.
-- Each event keeps its own ts: an arrow is drawn from and to the points its events were
-- written at.
-- enclosing = 1 binds to the deepest slice containing ts. Slices nest, so that slice is the
-- latest-starting slice at or before ts or one of its ancestors. Among slices starting at the
-- same ts the deepest is the shortest, and among equal (ts, dur) the last inserted (the order
-- the nesting pass reads them in), so one backward seek on the (thread_id, ts, dur DESC) index
-- finds it without reading the table or sorting. It usually covers ts; when it does not, climb
-- parent_id until a slice does.
-- enclosing = 0 binds to the first slice starting at or after ts (the outermost among equal
-- starts: the longest, then the first inserted). NULL when none does.
INSERT INTO trace_flows._trace_flow_bound (category, flow_key, phase, name, ts, slice_id)
SELECT
    e.category,
    e.flow_key,
    e.phase,
    e.name,
    e.ts,
    CASE
        WHEN e.enclosing = 1 THEN coalesce(
            (
                SELECT CASE WHEN s.ts + s.dur > e.ts OR s.ts = e.ts THEN s.id END
                FROM _slice AS s
                WHERE s.thread_id = e.thread_id
                  AND s.ts <= e.ts
                ORDER BY s.ts DESC, s.dur, s.id DESC
                LIMIT 1
            ),
            (
                WITH RECURSIVE climb (id, ts, dur, parent_id) AS (
                    SELECT latest.id, latest.ts, latest.dur, latest.parent_id
                    FROM (
                        SELECT s.id, s.ts, s.dur, s.parent_id
                        FROM _slice AS s
                        WHERE s.thread_id = e.thread_id
                          AND s.ts <= e.ts
                        ORDER BY s.ts DESC, s.dur, s.id DESC
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
        )
        ELSE (
            SELECT s.id
            FROM _slice AS s
            WHERE s.thread_id = e.thread_id
              AND s.ts >= e.ts
            ORDER BY s.ts, s.dur DESC, s.id
            LIMIT 1
        )
    END AS slice_id
FROM trace_flows._trace_flow_event AS e
ORDER BY e.category, e.flow_key, e.ts, e.phase, e.source_row
