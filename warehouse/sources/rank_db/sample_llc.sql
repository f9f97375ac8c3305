-- reads: LLC
-- LLC: hit rate (%) and throughput (bytes/s) per LLC and mode (read, write).
INSERT INTO temp.rank_db_sample (track, unit, ts, value)
SELECT 'device' || l.deviceId || '.llc.' || l.llcId || '.' || COALESCE(s.value, l.mode) || '.' || v.metric,
       CASE v.metric WHEN 'hit_rate' THEN '%' ELSE 'B/s' END,
       CAST(l.timestampNs AS INTEGER), CASE v.metric WHEN 'hit_rate' THEN l.hitRate ELSE l.throughput END
FROM in_LLC AS l
CROSS JOIN (SELECT 'hit_rate' AS metric UNION ALL SELECT 'throughput') AS v
LEFT JOIN in_STRING_IDS AS s ON s.id = l.mode;
