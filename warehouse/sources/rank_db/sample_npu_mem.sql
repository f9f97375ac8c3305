-- reads: NPU_MEM
-- NPU_MEM: device memory in use (DDR and HBM, bytes) per memory type (app, device).
INSERT INTO temp.rank_db_sample (track, unit, ts, value)
SELECT 'device' || m.deviceId || '.npu_mem.' || COALESCE(s.value, m.type) || '.' || v.metric, 'bytes',
       CAST(m.timestampNs AS INTEGER), CASE v.metric WHEN 'ddr' THEN m.ddr ELSE m.hbm END
FROM in_NPU_MEM AS m
CROSS JOIN (SELECT 'ddr' AS metric UNION ALL SELECT 'hbm') AS v
LEFT JOIN in_STRING_IDS AS s ON s.id = m.type;
