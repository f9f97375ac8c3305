-- reads: NPU_MEM
-- NPU_MEM's app rows as memory_record's APP component: the whole process's device memory, as the
-- text export's memory_record.csv gives it (APP rows: reserved memory only, no allocated, active or
-- stream), so a db export and a text export of one run answer the same APP peak. The reserved total
-- is ddr + hbm (msprof's npu_mem memory column, which torch_npu's text export reads); the device
-- type's rows (the whole device, other processes included) are not the process's and stay counters
-- only (sample_npu_mem.sql). source_row is NPU_MEM's rowid.
INSERT INTO memory_record (
    source_id, source_row, rank_id, device_id, component, ts,
    total_allocated_bytes, total_reserved_bytes, total_active_bytes, stream_ptr
)
SELECT
    :source_id, m._row, :rank_id, m.deviceId, 'APP', CAST(m.timestampNs AS INTEGER),
    NULL, CAST(COALESCE(m.ddr, 0) + COALESCE(m.hbm, 0) AS INTEGER), NULL, NULL
FROM in_NPU_MEM AS m
LEFT JOIN in_STRING_IDS AS s ON s.id = m.type
WHERE COALESCE(s.value, m.type) = 'app';
