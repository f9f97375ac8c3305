-- reads: PCIE
-- PCIe bandwidth samples.
INSERT INTO pcie (
    source_id, source_row, rank_id, device_id, ts,
    tx_post_min, tx_post_max, tx_post_avg, tx_nonpost_min, tx_nonpost_max, tx_nonpost_avg,
    tx_cpl_min, tx_cpl_max, tx_cpl_avg, tx_nonpost_latency_min, tx_nonpost_latency_max, tx_nonpost_latency_avg,
    rx_post_min, rx_post_max, rx_post_avg, rx_nonpost_min, rx_nonpost_max, rx_nonpost_avg,
    rx_cpl_min, rx_cpl_max, rx_cpl_avg
)
SELECT
    :source_id, p._row, :rank_id, p.deviceId, CAST(p.timestampNs AS INTEGER),
    p.txPostMin, p.txPostMax, p.txPostAvg, p.txNonpostMin, p.txNonpostMax, p.txNonpostAvg,
    p.txCplMin, p.txCplMax, p.txCplAvg, p.txNonpostLatencyMin, p.txNonpostLatencyMax, p.txNonpostLatencyAvg,
    p.rxPostMin, p.rxPostMax, p.rxPostAvg, p.rxNonpostMin, p.rxNonpostMax, p.rxNonpostAvg,
    p.rxCplMin, p.rxCplMax, p.rxCplAvg
FROM in_PCIE AS p;
