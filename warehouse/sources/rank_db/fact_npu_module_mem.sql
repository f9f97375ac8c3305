-- reads: NPU_MODULE_MEM
-- NPU_MODULE_MEM also into npu_module_mem (the table npu_module_mem.csv fills), module as text.
INSERT INTO npu_module_mem (source_id, source_row, rank_id, device_id, component, ts, total_reserved_bytes)
SELECT :source_id, m._row, :rank_id, m.deviceId, COALESCE(e.name, CAST(m.moduleId AS TEXT)),
       CAST(m.timestampNs AS INTEGER), CAST(m.totalReserved AS INTEGER)
FROM in_NPU_MODULE_MEM AS m
LEFT JOIN in_ENUM_MODULE AS e ON e.id = m.moduleId;
