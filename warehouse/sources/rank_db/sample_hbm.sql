-- reads: HBM
-- HBM: bandwidth per HBM and direction (read, write), bytes/s.
INSERT INTO temp.rank_db_sample (track, unit, ts, value)
SELECT 'device' || h.deviceId || '.hbm.' || h.hbmId || '.' || COALESCE(s.value, h.type), 'B/s',
       CAST(h.timestampNs AS INTEGER), h.bandwidth
FROM in_HBM AS h
LEFT JOIN in_STRING_IDS AS s ON s.id = h.type;
