-- title: Communication operator transports
-- description: Per run, rank, step, communication group, HCCL operator and transport (SDMA,
--     RDMA, HCCS, PCIE, SIO, ...), the bytes moved, their time, the bandwidth, the share of
--     large packets and the packet sizes, as the profiler's communication summary that answers the
--     rank states them (communication_bandwidth_answer: analysis.db, else communication.json,
--     else cluster_communication.json; 'Total Op Info' rows left out): the bandwidth table and
--     packet charts of MindStudio Insight's Communication page (communication/bandwidth,
--     communication/distribution; DbClusterDataBase.cpp QueryBandwidthData, QueryDistributionData).
-- param run_id (integer, default null): Only this run; every run when null.
-- param rank_id (integer, default null): Only this rank; every rank when null.
-- param step_id (integer, default null): Only this step; every step when null.
-- param group_name (text, default null): Only this communication group; every group when null.
-- param op_name (text, default null): Only this operator; every operator when null.
-- column run_id: Run.
-- column rank_id: Rank.
-- column step_id: Step number.
-- column group_name: Communication group (the hash after '@').
-- column op_name: Operator name.
-- column transport_type: Transport type.
-- column transit_bytes: Bytes moved.
-- column transit_ns: Time moving them in ns.
-- column bandwidth_bytes_per_s: Bandwidth in bytes/s as the summary states it.
-- column large_packet_ratio: Share of large packets as the summary states it.
-- column size_distribution: Packet sizes as the summary gives them: a JSON object {size in MB:
--     [count, time in ms]}.
select
    run_id, rank_id, step_id, group_name, op_name, transport_type, transit_bytes, transit_ns, bandwidth_bytes_per_s,
    large_packet_ratio, size_distribution
from communication_bandwidth_answer
where op_name <> 'Total Op Info'
    and (:run_id is null or run_id = :run_id) and (:rank_id is null or rank_id = :rank_id)
    and (:step_id is null or step_id = :step_id) and (:group_name is null or group_name = :group_name)
    and (:op_name is null or op_name = :op_name)
order by run_id, rank_id, step_id, group_name, op_name, transport_type
