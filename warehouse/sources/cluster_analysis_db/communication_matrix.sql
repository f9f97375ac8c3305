-- ClusterCommAnalyzerMatrix (one row per operator and global rank pair; MB, ms, GB/s) into
-- communication_matrix, as cluster_communication_matrix.json is read: rank_id -1 (the pair's ranks
-- are src_rank and dst_rank), the pair written '<src>-<dst>', comm_type NULL (the table does not say).
INSERT INTO communication_matrix (
    source_id, source_row, rank_id, step_id, comm_type, op_name, group_name, link, src_rank, dst_rank,
    transport_type, transit_bytes, transit_ns, bandwidth_bytes_per_s, task_op_name
)
SELECT
    :source_id, m._row, -1, step_of_key(m.step), NULL, m.hccl_op_name, nullif(m.group_name, ''),
    m.src_rank || '-' || m.dst_rank, link_end(m.src_rank, m.dst_rank, 1),
    link_end(m.src_rank, m.dst_rank, 2), m.transport_type, mb_to_bytes(m.transit_size),
    ms_to_ns(m.transit_time), gb_per_s_to_bytes_per_s(m.bandwidth), nullif(m.op_name, '')
FROM in_ClusterCommAnalyzerMatrix AS m
ORDER BY m._row;
