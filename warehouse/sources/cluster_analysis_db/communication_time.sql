-- ClusterCommAnalyzerTime (one row per rank and HCCL operator, 'Total Op Info' rows included; start
-- in us, times in ms) into communication_time, as cluster_communication.json is read. The table
-- does not say p2p or collective: comm_type stays NULL. A key without '@' has group_name ''.
INSERT INTO communication_time (
    source_id, source_row, rank_id, step_id, comm_type, op_name, group_name, ts, elapse_ns, transit_ns, wait_ns,
    synchronization_ns, idle_ns, wait_ratio, synchronization_ratio
)
SELECT
    :source_id, t._row, coalesce(t.rank_id, -1), step_of_key(t.step), NULL, t.hccl_op_name,
    nullif(t.group_name, ''), us_to_ns(t.start_timestamp), ms_to_ns(t.elapsed_time), ms_to_ns(t.transit_time),
    ms_to_ns(t.wait_time), ms_to_ns(t.synchronization_time), ms_to_ns(t.idle_time), ratio(t.wait_time_ratio),
    ratio(t.synchronization_time_ratio)
FROM in_ClusterCommAnalyzerTime AS t
ORDER BY t._row;
