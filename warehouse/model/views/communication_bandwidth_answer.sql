-- description: The same for the bytes and bandwidth per operator and transport
--     (CommAnalyzerBandwidth, communication.json).
-- column run_id: Run.
-- column source_id: Input the row came from.
-- column source_row: Ordinal of the (operator, transport) entry in the file.
-- column rank_id: Rank the operator ran on (-1 when unknown).
-- column step_id: Step number from the step key.
-- column comm_type: p2p or collective.
-- column op_name: Operator name (the key before '@').
-- column group_name: Communication group (the key after '@').
-- column transport_type: Transport type: RDMA, HCCS, PCIE, SDMA, SIO, ...
-- column transit_bytes: Bytes moved (Transit Size(MB), MB = 10**6 bytes).
-- column transit_ns: Time moving them in ns (Transit Time(ms)).
-- column bandwidth_bytes_per_s: Bandwidth in bytes/s (Bandwidth(GB/s), GB = 10**9 bytes).
-- column large_packet_ratio: Share of large packets (Large Packet Ratio).
-- column size_distribution: Packet sizes as given: JSON object {size in MB: [count, time in
--     ms]} (Size Distribution).
-- column kind: Format of the input whose summary answers (source.kind).
-- column op_type: The operator's type, its name less the instance suffix (hcom_allReduce_), as
--     hccl_operator.type_name names it.
SELECT a.run_id, b.*, a.kind,
-- include: _instance_type
    AS op_type
FROM communication_bandwidth AS b
JOIN summary_answer AS a ON a.source_id = b.source_id AND a.rank_id IS b.rank_id AND a.fact = 'communication_summary'
