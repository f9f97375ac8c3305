-- reads: SOC_BANDWIDTH_LEVEL
-- SOC_BANDWIDTH_LEVEL: L2 buffer and MATA bandwidth levels.
INSERT INTO temp.rank_db_sample (track, unit, ts, value)
SELECT 'device' || b.deviceId || '.soc_bandwidth_level.' || v.metric, 'level', CAST(b.timestampNs AS INTEGER),
       CASE v.metric WHEN 'l2_buffer_bw_level' THEN b.l2BufferBwLevel ELSE b.mataBwLevel END
FROM in_SOC_BANDWIDTH_LEVEL AS b
CROSS JOIN (SELECT 'l2_buffer_bw_level' AS metric UNION ALL SELECT 'mata_bw_level') AS v;
