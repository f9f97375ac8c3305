-- reads: CANN_API
-- CANN_API with the API level and name as text.
INSERT INTO cann_api (source_id, source_row, rank_id, ts, dur, type, global_tid, connection_id, name, slice_id)
SELECT
    :source_id, a._row, :rank_id, CAST(a.startNs AS INTEGER),
    CAST(a.endNs AS INTEGER) - CAST(a.startNs AS INTEGER),
    COALESCE(e.name, CAST(a.type AS TEXT)), a.globalTid, a.connectionId, n.value,
    :base_cann_api + a._row
FROM in_CANN_API AS a
LEFT JOIN in_STRING_IDS AS n ON n.id = a.name
LEFT JOIN in_ENUM_API_TYPE AS e ON e.id = a.type;
