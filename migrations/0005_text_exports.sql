-- The text exports of torch_npu / msprof (export_type=text) and the cluster analysis outputs,
-- plus the rule tables of the kernel classification (seed 004). Kernel CSVs go to `kernel`,
-- memory_record.csv and operator_memory.csv to the rank db's `memory_record` and `op_memory`
-- (same fields; source.kind tells the origin). Times are ns, sizes bytes, rates bytes/s.
-- source_row is the CSV data-record number (1 = first record after the header) or, for JSON,
-- the row's ordinal in document order within its table.

-- Kernel name patterns (warehouse/analysis/kernel_signatures.csv), reloaded when the file's version changes.
CREATE TABLE kernel_signature (
    -- Line order in the file: the first matching pattern wins.
    position INTEGER PRIMARY KEY,
    -- Lower-case text looked for in the kernel's folded name|type|core|task type (no '_', '-', '.', '/', ' ').
    pattern TEXT NOT NULL,
    -- Category given to matching kernels (kernel.category), e.g. attention.flash_score.
    category TEXT NOT NULL,
    -- Coarse role: communication, attention, moe, matmul, selection, compute or data.
    role TEXT NOT NULL,
    -- Version of the file the row came from.
    version INTEGER NOT NULL
);

-- Accelerator Core / task type values and the op_class they give (warehouse/analysis/kernel_core_classes.csv).
CREATE TABLE kernel_core_class (
    -- The value, upper-cased (AI_CORE, KERNEL_AIVEC, MIX_AIV, HCCL, ...).
    core TEXT PRIMARY KEY,
    -- aic, aiv, mix_cv, communication (mix_comm_aiv when the kernel has AIV time) or aicpu.
    op_class TEXT NOT NULL,
    -- Version of the file the row came from.
    version INTEGER NOT NULL
);

-- Finding one source's kernel rows (classification, replacement) without a scan.
CREATE INDEX kernel_source ON kernel (source_id);

-- op_statistic.csv: kernel time per operator type and core type.
CREATE TABLE op_statistic (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- CSV data-record number.
    source_row INTEGER,
    -- Rank of the file (-1 when unknown).
    rank_id INTEGER,
    -- Operator type (OP Type).
    op_type TEXT,
    -- Core type (Core Type): AI_CORE, AI_VECTOR_CORE, MIX_AIV, AI_CPU, ...
    core_type TEXT,
    -- Number of kernels (Count).
    count INTEGER,
    -- Total time in ns (Total Time(us)).
    total_ns INTEGER,
    -- Shortest kernel in ns (Min Time(us)).
    min_ns INTEGER,
    -- Mean kernel time in ns (Avg Time(us)).
    avg_ns INTEGER,
    -- Longest kernel in ns (Max Time(us)).
    max_ns INTEGER,
    -- Share of all kernel time in percent (Ratio(%)).
    ratio_pct REAL
);

-- operator_details.csv: host and device time of each framework operator.
CREATE TABLE operator_details (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- CSV data-record number (records may span lines: the call stack is multi-line).
    source_row INTEGER,
    -- Rank of the file (-1 when unknown).
    rank_id INTEGER,
    -- Operator name (Name), e.g. aten::add.
    name TEXT,
    -- Input shapes (Input Shapes).
    input_shapes TEXT,
    -- Call stack, frames separated by ';' and newlines (Call Stack).
    call_stack TEXT,
    -- Host time without children in ns (Host Self Duration(us)).
    host_self_ns INTEGER,
    -- Host time with children in ns (Host Total Duration(us)).
    host_total_ns INTEGER,
    -- Device time without children in ns (Device Self Duration(us)).
    device_self_ns INTEGER,
    -- Device time with children in ns (Device Total Duration(us)).
    device_total_ns INTEGER,
    -- AI Core device time without children in ns (Device Self Duration With AICore(us)).
    device_self_aicore_ns INTEGER,
    -- AI Core device time with children in ns (Device Total Duration With AICore(us)).
    device_total_aicore_ns INTEGER
);

-- step_trace_time.csv (one rank) and cluster_step_trace_time.csv (every rank and stage): step time split.
CREATE TABLE step_trace_time (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- CSV data-record number.
    source_row INTEGER,
    -- Rank the row is about (-1 for stage rows or when unknown).
    rank_id INTEGER,
    -- Step number (Step), NULL when the file leaves it empty.
    step_id INTEGER,
    -- What the row sums: rank or stage (cluster file's Type; 'rank' for a rank's own file).
    scope TEXT,
    -- Index as written in the cluster file: the rank number, or a stage's ranks '(0, 1, ...)'; the rank for a rank's own file.
    scope_key TEXT,
    -- Computing time in ns (Computing).
    computing_ns INTEGER,
    -- Communication not hidden by computing, in ns (Communication(Not Overlapped)).
    communication_not_overlapped_ns INTEGER,
    -- Communication hidden by computing, in ns (Overlapped).
    overlapped_ns INTEGER,
    -- All communication time in ns (Communication).
    communication_ns INTEGER,
    -- Idle time in ns (Free).
    free_ns INTEGER,
    -- Stage time in ns (Stage).
    stage_ns INTEGER,
    -- Pipeline bubble in ns (Bubble).
    bubble_ns INTEGER,
    -- Communication not overlapped, receives excluded, in ns (Communication(Not Overlapped and Exclude Receive)).
    communication_not_overlapped_exclude_receive_ns INTEGER,
    -- Preparation time before the first kernel, in ns (Preparing), when given.
    preparing_ns INTEGER
);

-- communication.json / cluster_communication.json: time of each HCCL operator on each rank.
CREATE TABLE communication_time (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Ordinal of the operator entry in the file.
    source_row INTEGER,
    -- Rank the operator ran on (-1 when unknown).
    rank_id INTEGER,
    -- Step number from the step key (step50 -> 50).
    step_id INTEGER,
    -- p2p or collective.
    comm_type TEXT,
    -- Operator name (the key before '@'), e.g. hcom_allReduce__586_0_1, or 'Total Op Info'.
    op_name TEXT,
    -- Communication group (the key after '@'), a hash of the group id.
    group_name TEXT,
    -- Start in ns (Start Timestamp(us)).
    ts INTEGER,
    -- Elapsed time in ns (Elapse Time(ms)).
    elapse_ns INTEGER,
    -- Time spent moving data in ns (Transit Time(ms)).
    transit_ns INTEGER,
    -- Time spent waiting for peers in ns (Wait Time(ms)).
    wait_ns INTEGER,
    -- Time spent synchronising in ns (Synchronization Time(ms)).
    synchronization_ns INTEGER,
    -- Idle time in ns (Idle Time(ms)).
    idle_ns INTEGER,
    -- Wait / (wait + transit) (Wait Time Ratio).
    wait_ratio REAL,
    -- Synchronization / (synchronization + transit) (Synchronization Time Ratio).
    synchronization_ratio REAL
);

-- communication.json / cluster_communication.json: bytes and bandwidth per operator and transport type.
CREATE TABLE communication_bandwidth (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Ordinal of the (operator, transport) entry in the file.
    source_row INTEGER,
    -- Rank the operator ran on (-1 when unknown).
    rank_id INTEGER,
    -- Step number from the step key.
    step_id INTEGER,
    -- p2p or collective.
    comm_type TEXT,
    -- Operator name (the key before '@').
    op_name TEXT,
    -- Communication group (the key after '@').
    group_name TEXT,
    -- Transport type: RDMA, HCCS, PCIE, SDMA, SIO, ...
    transport_type TEXT,
    -- Bytes moved (Transit Size(MB), MB = 10**6 bytes).
    transit_bytes INTEGER,
    -- Time moving them in ns (Transit Time(ms)).
    transit_ns INTEGER,
    -- Bandwidth in bytes/s (Bandwidth(GB/s), GB = 10**9 bytes).
    bandwidth_bytes_per_s INTEGER,
    -- Share of large packets (Large Packet Ratio).
    large_packet_ratio REAL,
    -- Packet sizes as given: JSON object {size in MB: [count, time in ms]} (Size Distribution).
    size_distribution TEXT
);

-- communication_matrix.json / cluster_communication_matrix.json: traffic per rank pair of each operator.
CREATE TABLE communication_matrix (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Ordinal of the (operator, pair) entry in the file.
    source_row INTEGER,
    -- Rank of the file (-1 for the cluster file or when unknown).
    rank_id INTEGER,
    -- Step number from the step key.
    step_id INTEGER,
    -- p2p or collective.
    comm_type TEXT,
    -- Operator or operator family (the key before '@'), e.g. allreduce-top1, or 'Total Op Info'.
    op_name TEXT,
    -- Communication group (the key after '@').
    group_name TEXT,
    -- The pair as written, '<src>-<dst>'.
    link TEXT,
    -- Sending rank.
    src_rank INTEGER,
    -- Receiving rank.
    dst_rank INTEGER,
    -- Transport type: LOCAL, HCCS, RDMA, PCIE, SIO, ...
    transport_type TEXT,
    -- Bytes moved (Transit Size(MB), MB = 10**6 bytes).
    transit_bytes INTEGER,
    -- Time moving them in ns (Transit Time(ms)).
    transit_ns INTEGER,
    -- Bandwidth in bytes/s (Bandwidth(GB/s), GB = 10**9 bytes).
    bandwidth_bytes_per_s INTEGER,
    -- Operator the pair's figures come from (Op Name), when given.
    task_op_name TEXT
);

-- api_statistic.csv: time per CANN API.
CREATE TABLE api_statistic (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- CSV data-record number.
    source_row INTEGER,
    -- Rank of the file (-1 when unknown).
    rank_id INTEGER,
    -- API level: acl, runtime, node, model, hccl (Level).
    level TEXT,
    -- API name (API Name).
    api_name TEXT,
    -- Total time in ns (Time(us)).
    total_ns INTEGER,
    -- Number of calls (Count).
    count INTEGER,
    -- Mean time in ns (Avg(us)).
    avg_ns INTEGER,
    -- Shortest call in ns (Min(us)).
    min_ns INTEGER,
    -- Longest call in ns (Max(us)).
    max_ns INTEGER,
    -- Variance of the call times in ns^2 (Variance, us^2 in the file).
    variance_ns2 REAL
);

-- npu_module_mem.csv: device memory reserved by each CANN module over time.
CREATE TABLE npu_module_mem (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- CSV data-record number.
    source_row INTEGER,
    -- Rank of the file (-1 when unknown).
    rank_id INTEGER,
    -- NPU device id (Device, e.g. NPU:0).
    device_id INTEGER,
    -- Module (Component), e.g. SLOG, APP, HCCL.
    component TEXT,
    -- Time of the sample in ns (Timestamp(us)).
    ts INTEGER,
    -- Memory reserved by the module in bytes (Total Reserved(MB), MB = 1024 * 1024 bytes).
    total_reserved_bytes INTEGER
);

-- l2_cache.csv: L2 cache hit and victim rates per kernel task.
CREATE TABLE kernel_l2_cache (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- CSV data-record number.
    source_row INTEGER,
    -- Rank of the file (-1 when unknown).
    rank_id INTEGER,
    -- Stream of the task (Stream Id), kernel.stream_id.
    stream_id INTEGER,
    -- Task id (Task Id), kernel.task_id.
    task_id INTEGER,
    -- L2 hit rate, 0-1 (Hit Rate).
    hit_rate REAL,
    -- L2 victim rate, 0-1 (Victim Rate).
    victim_rate REAL,
    -- Kernel name (Op Name).
    op_name TEXT
);

-- static_op_mem.csv: memory of statically compiled graph operators.
CREATE TABLE static_op_memory (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- CSV data-record number.
    source_row INTEGER,
    -- Rank of the file (-1 when unknown).
    rank_id INTEGER,
    -- Device as written (Device_id): a number, NPU:N or host.
    device TEXT,
    -- NPU device id when the device is one.
    device_id INTEGER,
    -- Operator name (Op Name).
    op_name TEXT,
    -- Model name (Model Name).
    model_name TEXT,
    -- Graph id (Graph ID).
    graph_id INTEGER,
    -- First node index the memory is live at (Node Index Start).
    node_index_start INTEGER,
    -- Last node index the memory is live at (Node Index End).
    node_index_end INTEGER,
    -- Size in bytes (Size(KB), KB = 1024 bytes).
    size_bytes INTEGER
);

-- communication_group.json: the communication groups of a cluster.
CREATE TABLE communication_group (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Ordinal of the group in the file (sections in the order collective, p2p, comm_group_parallel_info).
    source_row INTEGER,
    -- Section of the file the group is listed in.
    section TEXT,
    -- collective or p2p.
    group_type TEXT,
    -- Ranks of the group as a JSON array.
    rank_set TEXT,
    -- Group name (a hash of group_id, as in communication_op.group_name), when given.
    group_name TEXT,
    -- Group id from the framework, when given.
    group_id TEXT,
    -- Process-group name (tp, dp, pp, ...), when given.
    pg_name TEXT
);
