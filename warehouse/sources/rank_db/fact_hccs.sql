-- reads: HCCS
-- HCCS link bandwidth samples.
INSERT INTO hccs (source_id, source_row, rank_id, device_id, ts, tx_throughput, rx_throughput)
SELECT :source_id, h._row, :rank_id, h.deviceId, CAST(h.timestampNs AS INTEGER), h.txThroughput, h.rxThroughput
FROM in_HCCS AS h;
