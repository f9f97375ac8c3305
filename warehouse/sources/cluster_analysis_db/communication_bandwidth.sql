-- ClusterCommAnalyzerBandwidth into communication_bandwidth, as cluster_communication.json's
-- "Communication Bandwidth Info" is read. The writer flattens "Size Distribution" to one row per
-- rank, operator, transport type (band_type) and packet size: those rows are one warehouse row
-- again, source_row the first of them.
INSERT INTO communication_bandwidth (
    source_id, source_row, rank_id, step_id, comm_type, op_name, group_name, transport_type, transit_bytes,
    transit_ns, bandwidth_bytes_per_s, large_packet_ratio, size_distribution
)
SELECT
    :source_id, MIN(b._row), coalesce(b.rank_id, -1), step_of_key(b.step), NULL, b.hccl_op_name,
    nullif(b.group_name, ''), b.band_type,
    -- bare columns: SQLite takes them from the row of MIN(b._row)
    mb_to_bytes(b.transit_size), ms_to_ns(b.transit_time), gb_per_s_to_bytes_per_s(b.bandwidth),
    ratio(b.large_packet_ratio), size_distribution(b._row, b.package_size, b.count, b.total_duration)
FROM in_ClusterCommAnalyzerBandwidth AS b
GROUP BY b.rank_id, b.step, b.hccl_op_name, b.group_name, b.band_type
ORDER BY MIN(b._row);
