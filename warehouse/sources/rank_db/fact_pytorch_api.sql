-- reads: PYTORCH_API
-- PYTORCH_API with names, dtypes, shapes and API type as text; startNs/endNs are TEXT in real files.
INSERT INTO pytorch_api (
    source_id, source_row, rank_id, ts, dur, name, global_tid, connection_id, sequence_number,
    fwd_thread_id, input_dtypes, input_shapes, callchain_id, type, slice_id
)
SELECT
    :source_id,
    a._row,
    :rank_id,
    CAST(a.startNs AS INTEGER),
    CAST(a.endNs AS INTEGER) - CAST(a.startNs AS INTEGER),
    n.value,
    a.globalTid,
    a.connectionId,
    a.sequenceNumber,
    a.fwdThreadId,
    d.value,
    s.value,
    a.callchainId,
    COALESCE(e.name, CAST(a.type AS TEXT)),
    :base_pytorch_api + a._row
FROM in_PYTORCH_API AS a
LEFT JOIN in_STRING_IDS AS n ON n.id = a.name
LEFT JOIN in_STRING_IDS AS d ON d.id = a.inputDtypes
LEFT JOIN in_STRING_IDS AS s ON s.id = a.inputShapes
LEFT JOIN in_ENUM_API_TYPE AS e ON e.id = a.type;
