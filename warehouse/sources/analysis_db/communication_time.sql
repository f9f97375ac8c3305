-- CommAnalyzerTime (one row per HCCL operator; start in us, times in ms) into communication_time,
-- as communication.json's "Communication Time Info" is read. The db has no ratio columns (its
-- writer drops them): wait_ratio and synchronization_ratio stay NULL.
INSERT INTO communication_time (
    source_id, source_row, rank_id, step_id, comm_type, op_name, group_name, ts, elapse_ns, transit_ns, wait_ns,
    synchronization_ns, idle_ns, wait_ratio, synchronization_ratio
)
SELECT
    :source_id, t._row, :rank_id, step_of_key(t.step), t.type, t.hccl_op_name, t.group_name,
    us_to_ns(t.start_timestamp), ms_to_ns(t.elapse_time), ms_to_ns(t.transit_time), ms_to_ns(t.wait_time),
    ms_to_ns(t.synchronization_time), ms_to_ns(t.idle_time), NULL, NULL
FROM in_CommAnalyzerTime AS t
ORDER BY t._row;
