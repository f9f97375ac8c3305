-- CommAnalyzerMatrix (one row per operator family and rank pair; MB, ms, GB/s) into
-- communication_matrix, as communication_matrix.json is read: the pair written '<src>-<dst>'.
INSERT INTO communication_matrix (
    source_id, source_row, rank_id, step_id, comm_type, op_name, group_name, link, src_rank, dst_rank,
    transport_type, transit_bytes, transit_ns, bandwidth_bytes_per_s, task_op_name
)
SELECT
    :source_id, m._row, :rank_id, step_of_key(m.step), m.type, m.hccl_op_name, m.group_name,
    m.src_rank || '-' || m.dst_rank, link_end(m.src_rank, m.dst_rank, 1),
    link_end(m.src_rank, m.dst_rank, 2), m.transport_type, mb_to_bytes(m.transit_size),
    ms_to_ns(m.transit_time), gb_per_s_to_bytes_per_s(m.bandwidth), m.op_name
FROM in_CommAnalyzerMatrix AS m
ORDER BY m._row;
