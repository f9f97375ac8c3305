-- reads: ACC_PMU
-- ACC_PMU: read/write bandwidth and outstanding levels per accelerator.
INSERT INTO temp.rank_db_sample (track, unit, ts, value)
SELECT 'device' || a.deviceId || '.acc_pmu.' || a.accId || '.' || v.metric, 'level',
       CAST(a.timestampNs AS INTEGER),
       CASE v.metric
           WHEN 'read_bw_level' THEN a.readBwLevel WHEN 'write_bw_level' THEN a.writeBwLevel
           WHEN 'read_ost_level' THEN a.readOstLevel ELSE a.writeOstLevel
       END
FROM in_ACC_PMU AS a
CROSS JOIN (
    SELECT 'read_bw_level' AS metric UNION ALL SELECT 'write_bw_level'
    UNION ALL SELECT 'read_ost_level' UNION ALL SELECT 'write_ost_level'
) AS v;
