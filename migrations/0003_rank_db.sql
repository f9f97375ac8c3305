-- The tables of ascend_pytorch_profiler_{rank}.db (seed 001 and the CANN tables of real
-- files), one row per input row, names resolved from STRING_IDS / ENUM_* to text.
-- Times are integer ns on the input's clock; sizes in bytes; rates per second.
-- The same rows also feed the timeline (slice, flow, counter), step, rank and kernel.

-- Framework (torch_npu) API calls: PYTORCH_API, one row per call.
CREATE TABLE pytorch_api (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Row of PYTORCH_API (its rowid).
    source_row INTEGER,
    -- Rank of the input file (-1 when unknown).
    rank_id INTEGER,
    -- Start of the call in ns (startNs, cast from TEXT).
    ts INTEGER,
    -- Duration of the call in ns (endNs - startNs).
    dur INTEGER,
    -- API name (STRING_IDS(name)).
    name TEXT,
    -- Global thread id: pid in the high 32 bits, tid in the low 32 bits (globalTid).
    global_tid INTEGER,
    -- Key into CONNECTION_IDS.id linking the call to queue, fwd/bwd and CANN/device rows (connectionId).
    connection_id INTEGER,
    -- Operator sequence number (sequenceNumber).
    sequence_number INTEGER,
    -- Forward thread id of the operator (fwdThreadId).
    fwd_thread_id INTEGER,
    -- Input data types (STRING_IDS(inputDtypes)).
    input_dtypes TEXT,
    -- Input shapes (STRING_IDS(inputShapes)).
    input_shapes TEXT,
    -- Key of the call stack in callchain.callchain_id (callchainId).
    callchain_id INTEGER,
    -- Kind of row: op, queue, mstx, python_trace ... (ENUM_API_TYPE(type)).
    type TEXT,
    -- The call's slice on the timeline (slice.id).
    slice_id INTEGER
);
CREATE INDEX pytorch_api_rank_ts ON pytorch_api (rank_id, ts);

-- Call stacks of framework API calls: PYTORCH_CALLCHAINS, one row per frame.
CREATE TABLE callchain (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Row of PYTORCH_CALLCHAINS (its rowid).
    source_row INTEGER,
    -- Rank of the input file (-1 when unknown).
    rank_id INTEGER,
    -- Stack id, referenced by pytorch_api.callchain_id (id).
    callchain_id INTEGER,
    -- Depth of the frame in its stack, 0 = innermost as the profiler writes it (stackDepth).
    depth INTEGER,
    -- The frame's text (STRING_IDS(stack)).
    frame TEXT
);
CREATE INDEX callchain_id ON callchain (rank_id, callchain_id);

-- Framework device-memory records: MEMORY_RECORD.
CREATE TABLE memory_record (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Row of MEMORY_RECORD (its rowid).
    source_row INTEGER,
    -- Rank of the input file (-1 when unknown).
    rank_id INTEGER,
    -- NPU device id (deviceId).
    device_id INTEGER,
    -- Component: GE, PTA or PTA+GE (STRING_IDS(component)).
    component TEXT,
    -- Time of the record in ns (timestamp).
    ts INTEGER,
    -- Total allocated memory in bytes (totalAllocated).
    total_allocated_bytes INTEGER,
    -- Total reserved memory in bytes (totalReserved).
    total_reserved_bytes INTEGER,
    -- Total memory allocated to the PTA stream in bytes (totalActive).
    total_active_bytes INTEGER,
    -- AscendCL stream address (streamPtr).
    stream_ptr INTEGER
);

-- Memory held by each operator, built by torch_npu from MEMORY_RECORD: OP_MEMORY.
CREATE TABLE op_memory (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Row of OP_MEMORY (its rowid).
    source_row INTEGER,
    -- Rank of the input file (-1 when unknown).
    rank_id INTEGER,
    -- NPU device id (deviceId).
    device_id INTEGER,
    -- torch or GE operator name (STRING_IDS(name)).
    name TEXT,
    -- Memory the operator occupied in bytes (size).
    size_bytes INTEGER,
    -- Allocation time in ns (allocationTime).
    allocation_ts INTEGER,
    -- Release time in ns (releaseTime).
    release_ts INTEGER,
    -- Time the memory went back to the pool in ns (activeReleaseTime).
    active_release_ts INTEGER,
    -- Occupation time in ns (duration).
    dur INTEGER,
    -- Actual occupation time in ns (activeDuration).
    active_dur INTEGER,
    -- Memory allocated to PTA and GE at allocation, in bytes (allocationTotalAllocated).
    allocation_total_allocated_bytes INTEGER,
    -- Memory reserved by PTA and GE at allocation, in bytes (allocationTotalReserved).
    allocation_total_reserved_bytes INTEGER,
    -- Memory allocated for the stream at allocation, in bytes (allocationTotalActive).
    allocation_total_active_bytes INTEGER,
    -- Memory allocated to PTA and GE at release, in bytes (releaseTotalAllocated).
    release_total_allocated_bytes INTEGER,
    -- Memory reserved by PTA and GE at release, in bytes (releaseTotalReserved).
    release_total_reserved_bytes INTEGER,
    -- Memory allocated for the stream at release, in bytes (releaseTotalActive).
    release_total_active_bytes INTEGER,
    -- AscendCL stream address (streamPtr).
    stream_ptr INTEGER
);

-- Python garbage-collection pauses: GC_RECORD.
CREATE TABLE gc_event (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Row of GC_RECORD (its rowid).
    source_row INTEGER,
    -- Rank of the input file (-1 when unknown).
    rank_id INTEGER,
    -- Global thread id of the collecting thread (globalTid).
    global_tid INTEGER,
    -- Start of the pause in ns (startNs).
    ts INTEGER,
    -- Length of the pause in ns (endNs - startNs).
    dur INTEGER
);

-- RoCE port samples: ROCE.
CREATE TABLE roce (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Row of ROCE (its rowid).
    source_row INTEGER,
    -- Rank of the input file (-1 when unknown).
    rank_id INTEGER,
    -- NPU device id (deviceId).
    device_id INTEGER,
    -- Time of the sample in ns (timestampNs).
    ts INTEGER,
    -- Port bandwidth in bytes/s (bandwidth).
    bandwidth_bytes_per_s INTEGER,
    -- Packets received per second (rxPacketRate).
    rx_packet_rate REAL,
    -- Bytes received per second (rxByteRate).
    rx_byte_rate REAL,
    -- Total packets received (rxPackets).
    rx_packets INTEGER,
    -- Total bytes received (rxBytes).
    rx_bytes INTEGER,
    -- Total error packets received (rxErrors).
    rx_errors INTEGER,
    -- Total received packets dropped (rxDropped).
    rx_dropped INTEGER,
    -- Packets sent per second (txPacketRate).
    tx_packet_rate REAL,
    -- Bytes sent per second (txByteRate).
    tx_byte_rate REAL,
    -- Total packets sent (txPackets).
    tx_packets INTEGER,
    -- Total bytes sent (txBytes).
    tx_bytes INTEGER,
    -- Total error packets sent (txErrors).
    tx_errors INTEGER,
    -- Total sent packets dropped (txDropped).
    tx_dropped INTEGER,
    -- Port (funcId).
    func_id INTEGER
);

-- NIC port samples: NIC (same fields as ROCE).
CREATE TABLE nic (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Row of NIC (its rowid).
    source_row INTEGER,
    -- Rank of the input file (-1 when unknown).
    rank_id INTEGER,
    -- NPU device id (deviceId).
    device_id INTEGER,
    -- Time of the sample in ns (timestampNs).
    ts INTEGER,
    -- Port bandwidth in bytes/s (bandwidth).
    bandwidth_bytes_per_s INTEGER,
    -- Packets received per second (rxPacketRate).
    rx_packet_rate REAL,
    -- Bytes received per second (rxByteRate).
    rx_byte_rate REAL,
    -- Total packets received (rxPackets).
    rx_packets INTEGER,
    -- Total bytes received (rxBytes).
    rx_bytes INTEGER,
    -- Total error packets received (rxErrors).
    rx_errors INTEGER,
    -- Total received packets dropped (rxDropped).
    rx_dropped INTEGER,
    -- Packets sent per second (txPacketRate).
    tx_packet_rate REAL,
    -- Bytes sent per second (txByteRate).
    tx_byte_rate REAL,
    -- Total packets sent (txPackets).
    tx_packets INTEGER,
    -- Total bytes sent (txBytes).
    tx_bytes INTEGER,
    -- Total error packets sent (txErrors).
    tx_errors INTEGER,
    -- Total sent packets dropped (txDropped).
    tx_dropped INTEGER,
    -- Port (funcId).
    func_id INTEGER
);

-- HCCS link bandwidth samples: HCCS.
CREATE TABLE hccs (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Row of HCCS (its rowid).
    source_row INTEGER,
    -- Rank of the input file (-1 when unknown).
    rank_id INTEGER,
    -- NPU device id (deviceId).
    device_id INTEGER,
    -- Time of the sample in ns (timestampNs).
    ts INTEGER,
    -- TX bandwidth in bytes/s (txThroughput).
    tx_throughput REAL,
    -- RX bandwidth in bytes/s (rxThroughput).
    rx_throughput REAL
);

-- PCIe bandwidth samples: PCIE. Bandwidths and completion sizes in bytes/s, latencies in ns.
CREATE TABLE pcie (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Row of PCIE (its rowid).
    source_row INTEGER,
    -- Rank of the input file (-1 when unknown).
    rank_id INTEGER,
    -- NPU device id (deviceId).
    device_id INTEGER,
    -- Time of the sample in ns (timestampNs).
    ts INTEGER,
    -- Minimum TX posted bandwidth in bytes/s (txPostMin).
    tx_post_min REAL,
    -- Maximum TX posted bandwidth in bytes/s (txPostMax).
    tx_post_max REAL,
    -- Average TX posted bandwidth in bytes/s (txPostAvg).
    tx_post_avg REAL,
    -- Minimum TX non-posted bandwidth in bytes/s (txNonpostMin).
    tx_nonpost_min REAL,
    -- Maximum TX non-posted bandwidth in bytes/s (txNonpostMax).
    tx_nonpost_max REAL,
    -- Average TX non-posted bandwidth in bytes/s (txNonpostAvg).
    tx_nonpost_avg REAL,
    -- Minimum TX completion packet rate in bytes/s (txCplMin).
    tx_cpl_min REAL,
    -- Maximum TX completion packet rate in bytes/s (txCplMax).
    tx_cpl_max REAL,
    -- Average TX completion packet rate in bytes/s (txCplAvg).
    tx_cpl_avg REAL,
    -- Minimum TX non-posted latency in ns (txNonpostLatencyMin).
    tx_nonpost_latency_min REAL,
    -- Maximum TX non-posted latency in ns (txNonpostLatencyMax).
    tx_nonpost_latency_max REAL,
    -- Average TX non-posted latency in ns (txNonpostLatencyAvg).
    tx_nonpost_latency_avg REAL,
    -- Minimum RX posted bandwidth in bytes/s (rxPostMin).
    rx_post_min REAL,
    -- Maximum RX posted bandwidth in bytes/s (rxPostMax).
    rx_post_max REAL,
    -- Average RX posted bandwidth in bytes/s (rxPostAvg).
    rx_post_avg REAL,
    -- Minimum RX non-posted bandwidth in bytes/s (rxNonpostMin).
    rx_nonpost_min REAL,
    -- Maximum RX non-posted bandwidth in bytes/s (rxNonpostMax).
    rx_nonpost_max REAL,
    -- Average RX non-posted bandwidth in bytes/s (rxNonpostAvg).
    rx_nonpost_avg REAL,
    -- Minimum RX completion packet rate in bytes/s (rxCplMin).
    rx_cpl_min REAL,
    -- Maximum RX completion packet rate in bytes/s (rxCplMax).
    rx_cpl_max REAL,
    -- Average RX completion packet rate in bytes/s (rxCplAvg).
    rx_cpl_avg REAL
);

-- CANN host API calls (ACL, runtime, node, model, HCCL): CANN_API.
CREATE TABLE cann_api (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Row of CANN_API (its rowid).
    source_row INTEGER,
    -- Rank of the input file (-1 when unknown).
    rank_id INTEGER,
    -- Start of the call in ns (startNs).
    ts INTEGER,
    -- Duration of the call in ns (endNs - startNs).
    dur INTEGER,
    -- API level: acl, runtime, node, model, hccl (ENUM_API_TYPE(type)).
    type TEXT,
    -- Global thread id: pid in the high 32 bits, tid in the low 32 bits (globalTid).
    global_tid INTEGER,
    -- Connection id shared with the device tasks it launched and with CONNECTION_IDS (connectionId).
    connection_id INTEGER,
    -- API name (STRING_IDS(name)).
    name TEXT,
    -- The call's slice on the timeline (slice.id).
    slice_id INTEGER
);
CREATE INDEX cann_api_rank_ts ON cann_api (rank_id, ts);

-- HCCL communication operators: COMMUNICATION_OP.
CREATE TABLE communication_op (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Row of COMMUNICATION_OP (its rowid).
    source_row INTEGER,
    -- Rank of the input file (-1 when unknown).
    rank_id INTEGER,
    -- NPU device id (deviceId; the rank's device when the input has no such column).
    device_id INTEGER,
    -- Operator name, e.g. hcom_allReduce__123_0_1 (STRING_IDS(opName)).
    name TEXT,
    -- Operator type, e.g. hcom_allReduce_ (STRING_IDS(opType)).
    op_type TEXT,
    -- Communication group (STRING_IDS(groupName)).
    group_name TEXT,
    -- Start in ns (startNs).
    ts INTEGER,
    -- Duration in ns (endNs - startNs).
    dur INTEGER,
    -- Element data type, e.g. FP16 (ENUM_HCCL_DATA_TYPE(dataType)).
    data_type TEXT,
    -- Algorithm, e.g. MESH-RING (STRING_IDS(algType)).
    alg_type TEXT,
    -- Number of elements (count).
    count INTEGER,
    -- Relay flag (relay).
    relay INTEGER,
    -- Retry flag (retry).
    retry INTEGER,
    -- Operator id, referenced by communication_task.op_id (opId).
    op_id INTEGER,
    -- Connection id shared with CONNECTION_IDS (connectionId).
    connection_id INTEGER,
    -- Number of ranks in the group (rankSize), when the input has it.
    rank_size INTEGER,
    -- The operator's slice on the timeline (slice.id).
    slice_id INTEGER
);
CREATE INDEX communication_op_rank_ts ON communication_op (rank_id, ts);

-- Device tasks of HCCL operators (notify, memcpy, reduce): COMMUNICATION_TASK_INFO.
CREATE TABLE communication_task (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Row of COMMUNICATION_TASK_INFO (its rowid).
    source_row INTEGER,
    -- Rank of the input file (-1 when unknown).
    rank_id INTEGER,
    -- Name of the operator the task belongs to (STRING_IDS(name)).
    name TEXT,
    -- Global task id, the TASK row of this task (globalTaskId).
    global_task_id INTEGER,
    -- Task type, e.g. Notify Wait, Memcpy, Reduce Inline (STRING_IDS(taskType)).
    task_type TEXT,
    -- Plane (link) the task ran on (planeId).
    plane_id INTEGER,
    -- Communication group (STRING_IDS(groupName)).
    group_name TEXT,
    -- Notify id (notifyId).
    notify_id INTEGER,
    -- RDMA type (ENUM_HCCL_RDMA_TYPE(rdmaType)).
    rdma_type TEXT,
    -- Source rank (srcRank).
    src_rank INTEGER,
    -- Destination rank (dstRank).
    dst_rank INTEGER,
    -- Transport type, e.g. SDMA, RDMA (ENUM_HCCL_TRANSPORT_TYPE(transportType)).
    transport_type TEXT,
    -- Bytes moved (size).
    size_bytes INTEGER,
    -- Element data type (ENUM_HCCL_DATA_TYPE(dataType)).
    data_type TEXT,
    -- Link type, e.g. HCCS, PCIE, ROCE (ENUM_HCCL_LINK_TYPE(linkType)).
    link_type TEXT,
    -- Operator id, communication_op.op_id (opId).
    op_id INTEGER,
    -- Master flag (isMaster), when the input has it.
    is_master INTEGER,
    -- Bandwidth of the task in bytes/s (bandwidth), when the input has it.
    bandwidth_bytes_per_s REAL,
    -- The task's device slice on the timeline (slice.id), when TASK has it.
    slice_id INTEGER
);
CREATE INDEX communication_task_op ON communication_task (rank_id, op_id);

-- Memory events of operators as CANN records them: NPU_OP_MEM.
CREATE TABLE npu_op_mem (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Row of NPU_OP_MEM (its rowid).
    source_row INTEGER,
    -- Rank of the input file (-1 when unknown).
    rank_id INTEGER,
    -- NPU device id (deviceId).
    device_id INTEGER,
    -- Operator name (STRING_IDS(operatorName)).
    operator_name TEXT,
    -- Device address of the block (addr).
    addr INTEGER,
    -- allocate or release (STRING_IDS(type)).
    type TEXT,
    -- Size of the block in bytes (size).
    size_bytes INTEGER,
    -- Time of the event in ns (timestampNs).
    ts INTEGER,
    -- Global thread id (globalTid).
    global_tid INTEGER,
    -- Total allocated after the event, in bytes (totalAllocate).
    total_allocate_bytes INTEGER,
    -- Total reserved after the event, in bytes (totalReserve).
    total_reserve_bytes INTEGER,
    -- Component, e.g. GE (STRING_IDS(component)).
    component TEXT
);
