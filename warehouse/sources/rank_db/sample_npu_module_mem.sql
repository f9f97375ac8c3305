-- reads: NPU_MODULE_MEM
-- NPU_MODULE_MEM: memory reserved by each CANN module (ENUM_MODULE), bytes.
INSERT INTO temp.rank_db_sample (track, unit, ts, value)
SELECT 'device' || m.deviceId || '.npu_module_mem.' || COALESCE(e.name, m.moduleId), 'bytes',
       CAST(m.timestampNs AS INTEGER), m.totalReserved
FROM in_NPU_MODULE_MEM AS m
LEFT JOIN in_ENUM_MODULE AS e ON e.id = m.moduleId;
