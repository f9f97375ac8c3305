-- reads: MSTX_EVENTS
-- MSTX_EVENTS: the ranges and marks the program made with mstx, as user ranges. The event types
-- are fixed ids (ENUM_MSTX_EVENT_TYPE: 0 marker, 1 push/pop, 2 start/end, 3 marker_ex); a
-- connectionId of 4294967295 (UINT32_MAX) means none.
INSERT INTO user_range (
    source_id, source_row, rank_id, ts, dur, name, kind, range_id, category, domain, global_tid,
    end_global_tid, connection_id
)
SELECT
    :source_id,
    e._row,
    :rank_id,
    CAST(e.startNs AS INTEGER),
    CASE WHEN CAST(e.endNs AS INTEGER) >= CAST(e.startNs AS INTEGER)
        THEN CAST(e.endNs AS INTEGER) - CAST(e.startNs AS INTEGER) END,
    m.value,
    CASE e.eventType WHEN 0 THEN 'marker' WHEN 1 THEN 'push/pop' WHEN 2 THEN 'start/end' WHEN 3 THEN 'marker_ex'
        ELSE CAST(e.eventType AS TEXT) END,
    e.rangeId,
    e.category,
    d.value,
    e.globalTid,
    e.endGlobalTid,
    nullif(e.connectionId, 4294967295)
FROM in_MSTX_EVENTS AS e
LEFT JOIN in_STRING_IDS AS m ON m.id = e.message
LEFT JOIN in_STRING_IDS AS d ON d.id = e.domainId;
