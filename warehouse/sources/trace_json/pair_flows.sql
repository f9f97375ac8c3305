-- The arrows of the trace just read, paired from its bound flow events (flow_events.sql) in one
-- pass, in the order the events are walked (_trace_flow_bound's rowid: category, flow_key, ts,
-- phase), which gives flow ids in that order.
-- Per (category, flow_key) an s starts a chain; every later t or f gets an arrow from the
-- chain's latest s or t, when both ends bound to a slice; a t then becomes the chain's latest.
-- Events before the key's first s make no arrow, and a t there starts nothing.
-- The rows of one key are contiguous in rowid order, so the latest s before an event in the
-- whole table is of the same key exactly when its key has an s before the event; the latest s
-- or t before the event is then at or after that s, of the same key too. Both are running
-- maxima over the table in rowid order (one window): no partition, no sort.
INSERT INTO flow (source_id, slice_out, slice_in, name, category, flow_key, ts_out, ts_in)
SELECT
    :source_id,
    chain.slice_id,
    walked.slice_id,
    coalesce(nullif(chain.name, ''), walked.name),
    nullif(walked.category, ''),
    walked.flow_key,
    chain.ts,
    walked.ts
FROM (
    SELECT
        e.rowid AS at,
        e.category,
        e.flow_key,
        e.phase,
        e.name,
        e.ts,
        e.slice_id,
        max(CASE WHEN e.phase = 0 THEN e.rowid END) OVER before AS last_start,
        max(CASE WHEN e.phase < 2 THEN e.rowid END) OVER before AS last_link
    FROM trace_flows._trace_flow_bound AS e
    WINDOW before AS (ORDER BY e.rowid ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
) AS walked
JOIN trace_flows._trace_flow_bound AS start
    ON start.rowid = walked.last_start
    AND start.category = walked.category
    AND start.flow_key = walked.flow_key
JOIN trace_flows._trace_flow_bound AS chain ON chain.rowid = walked.last_link
WHERE walked.phase > 0
  AND walked.slice_id IS NOT NULL
  AND chain.slice_id IS NOT NULL
ORDER BY walked.at
