-- reads: SESSION_TIME_INFO
-- SESSION_TIME_INFO: when the profiling session started and ended (ns).
INSERT INTO run_metadata (source_id, rank_id, name, value)
SELECT :source_id, :rank_id, 'sessionStartNs', CAST(CAST(s.startTimeNs AS INTEGER) AS TEXT) FROM in_SESSION_TIME_INFO AS s
UNION ALL
SELECT :source_id, :rank_id, 'sessionEndNs', CAST(CAST(s.endTimeNs AS INTEGER) AS TEXT) FROM in_SESSION_TIME_INFO AS s;
