-- reads: NPU_OP_MEM
-- NPU_OP_MEM with operator, event type and component as text.
INSERT INTO npu_op_mem (
    source_id, source_row, rank_id, device_id, operator_name, addr, type, size_bytes, ts, global_tid,
    total_allocate_bytes, total_reserve_bytes, component
)
SELECT
    :source_id, m._row, :rank_id, m.deviceId, n.value, m.addr, t.value, m.size, CAST(m.timestampNs AS INTEGER),
    m.globalTid, m.totalAllocate, m.totalReserve, c.value
FROM in_NPU_OP_MEM AS m
LEFT JOIN in_STRING_IDS AS n ON n.id = m.operatorName
LEFT JOIN in_STRING_IDS AS t ON t.id = m.type
LEFT JOIN in_STRING_IDS AS c ON c.id = m.component;
