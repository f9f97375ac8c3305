-- reads: AICORE_FREQ
-- AICORE_FREQ: AI Core frequency, MHz.
INSERT INTO temp.rank_db_sample (track, unit, ts, value)
SELECT 'device' || f.deviceId || '.aicore_freq', 'MHz', CAST(f.timestampNs AS INTEGER), f.freq
FROM in_AICORE_FREQ AS f;
