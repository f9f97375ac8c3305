-- reads: MEMORY_RECORD
-- MEMORY_RECORD with the component as text (PTA, GE, PTA+GE), as memory_record.csv stores it; the
-- process's own memory (the text export's APP rows) is in NPU_MEM here, copied as APP by
-- fact_memory_record_app.sql.
INSERT INTO memory_record (
    source_id, source_row, rank_id, device_id, component, ts,
    total_allocated_bytes, total_reserved_bytes, total_active_bytes, stream_ptr
)
SELECT
    :source_id, m._row, :rank_id, m.deviceId, s.value, CAST(m.timestamp AS INTEGER),
    m.totalAllocated, m.totalReserved, m.totalActive, m.streamPtr
FROM in_MEMORY_RECORD AS m
LEFT JOIN in_STRING_IDS AS s ON s.id = m.component;
