-- each: ROCE NIC
-- reads: {INPUT}
-- ROCE and NIC share their fields: one statement, run once per table.
INSERT INTO {input} (
    source_id, source_row, rank_id, device_id, ts, bandwidth_bytes_per_s, rx_packet_rate, rx_byte_rate,
    rx_packets, rx_bytes, rx_errors, rx_dropped, tx_packet_rate, tx_byte_rate, tx_packets, tx_bytes,
    tx_errors, tx_dropped, func_id
)
SELECT
    :source_id, p._row, :rank_id, p.deviceId, CAST(p.timestampNs AS INTEGER), p.bandwidth, p.rxPacketRate,
    p.rxByteRate, p.rxPackets, p.rxBytes, p.rxErrors, p.rxDropped, p.txPacketRate, p.txByteRate,
    p.txPackets, p.txBytes, p.txErrors, p.txDropped, p.funcId
FROM in_{INPUT} AS p;
