-- CommAnalyzerBandwidth into communication_bandwidth, as communication.json's "Communication
-- Bandwidth Info" is read. The db writes one row per operator, transport type and packet size
-- (the JSON's "Size Distribution" flattened; a transport without packets is one row of zeros):
-- the rows of one operator and transport are one warehouse row again, source_row the first of them.
INSERT INTO communication_bandwidth (
    source_id, source_row, rank_id, step_id, comm_type, op_name, group_name, transport_type, transit_bytes,
    transit_ns, bandwidth_bytes_per_s, large_packet_ratio, size_distribution
)
SELECT
    :source_id, MIN(b._row), :rank_id, step_of_key(b.step), b.type, b.hccl_op_name, b.group_name, b.transport_type,
    -- bare columns: SQLite takes them from the row of MIN(b._row)
    mb_to_bytes(b.transit_size), ms_to_ns(b.transit_time), gb_per_s_to_bytes_per_s(b.bandwidth),
    ratio(b.large_packet_ratio), size_distribution(b._row, b.package_size, b.count, b.total_duration)
FROM in_CommAnalyzerBandwidth AS b
GROUP BY b.step, b.type, b.hccl_op_name, b.group_name, b.transport_type
ORDER BY MIN(b._row);
