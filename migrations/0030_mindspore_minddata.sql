-- MindSpore's data pipeline (MindData, issue 37): the files its profiler writes per device about the
-- pipeline that feeds the device, each a source of its own. The pipeline's operators and their output
-- queues come from the raw pipeline_profiling_{device}.json (the monitor's samples) and from the
-- intermediate MindSpore's parser writes from it, minddata_pipeline_raw_{device}.csv (the audit
-- mindspore_minddata_agrees reconciles the two); the host's CPU use from
-- minddata_cpu_utilization_{device}.json; the device queue per step from
-- device_queue_profiling_{device}.txt (or dataset_iterator_profiling_{device}.txt, its twin when no
-- device queue sends the data); the device's GetNext waits from minddata_aicpu_{device}.txt
-- (minddata_getnext_profiling_{device}.txt on GPU). MindInsight's minddata analysers read the same
-- files (mindinsight/profiler/analyser/minddata_analyser.py, minddata_pipeline_analyser.py,
-- minddata_cpu_utilization_analyser.py).
-- Of one run and device, the raw JSON answers the pipeline (the fact minddata_pipeline) and the CSV only
-- where no JSON is.
INSERT INTO fact_precedence (fact, kind, precedence) VALUES
    ('minddata_pipeline', 'mindspore_pipeline_profiling_json', 1),
    ('minddata_pipeline', 'mindspore_minddata_pipeline_csv', 2);

-- One operator of a MindData pipeline and its output queue.
CREATE TABLE mindspore_minddata_op (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- CSV data-record number, or the operator's place in the JSON's op_info (from 1).
    source_row INTEGER,
    -- Device of the file (the number in the file name; -1 when the name has none).
    rank_id INTEGER,
    -- Operator id (op_id; 0 is the pipeline's last operator, the one the device reads from).
    op_id INTEGER NOT NULL,
    -- Operator type (op_type, e.g. BatchOp, MapOp, TFReader).
    op_type TEXT,
    -- Worker threads of the operator (num_workers).
    num_workers INTEGER,
    -- The operator it feeds (parent_id in the files): in the JSON the nearest operator above it with an output
    -- queue, as MindSpore's parser links them; NULL for the root.
    parent_op_id INTEGER,
    -- The operators feeding it, a JSON list as written (children_id / children); NULL when none.
    children_ids TEXT,
    -- Sampled sizes of its output queue, a JSON list as written (output_queue_size / output_queue.size);
    -- NULL when the operator has no output queue.
    queue_sizes TEXT,
    -- Mean of the sampled sizes (output_queue_average_size; computed from the samples in the JSON).
    queue_average_size REAL,
    -- Capacity of the output queue (output_queue_length / output_queue.length).
    queue_length INTEGER,
    -- Mean size over capacity, 0..1 (output_queue_usage_rate; computed in the JSON).
    queue_usage_rate REAL,
    -- The monitor's sampling interval in ms (sample_interval / sampling_interval).
    sample_interval_ms INTEGER
);
CREATE INDEX mindspore_minddata_op_source ON mindspore_minddata_op (source_id);

-- One sample of one CPU figure of minddata_cpu_utilization_{device}.json.
CREATE TABLE mindspore_minddata_cpu (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Sample number (from 1) within its series.
    source_row INTEGER,
    -- Device of the file (the number in the file name; -1 when the name has none).
    rank_id INTEGER,
    -- Whose figure: device (the whole host), process (the training process) or op (one pipeline operator).
    scope TEXT NOT NULL,
    -- The pipeline operator of an op figure (op_id); NULL for the others.
    op_id INTEGER,
    -- The figure as named in the file: user_utilization, sys_utilization, io_utilization,
    -- idle_utilization (percent of the host's CPUs), runable_processes, context_switch_count.
    metric TEXT NOT NULL,
    -- The sample's time as written (time_stamp, the host clock the device queue's records use); NULL
    -- past the file's list of times.
    time_stamp INTEGER,
    -- The sample's value.
    value REAL
);
CREATE INDEX mindspore_minddata_cpu_source ON mindspore_minddata_cpu (source_id);

-- One record of device_queue_profiling_{device}.txt (or dataset_iterator_profiling_{device}.txt): a
-- step's time to get a batch from the pipeline, to push it to the device, both together, or the
-- device queue's size when the step began.
CREATE TABLE mindspore_device_queue (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Line number.
    source_row INTEGER,
    -- Device of the file (the number in the file name; -1 when the name has none).
    rank_id INTEGER,
    -- What fed the device: device_queue (device_queue_profiling) or dataset_iterator
    -- (dataset_iterator_profiling); MindInsight reads the second only without the first.
    feeder TEXT NOT NULL,
    -- What the record holds: get (a batch from the pipeline), push (to the device), total, or queue.
    record TEXT NOT NULL,
    -- Step (batch) number as written.
    step_id INTEGER,
    -- Time of a get, push or total record in ns (ms in the file).
    cost_ns INTEGER,
    -- Batches in the queue, for a queue record.
    queue_size INTEGER,
    -- Capacity of the queue, for a queue record.
    queue_capacity INTEGER,
    -- When the record was written, host clock in ms as written (its last field; NULL when absent).
    time_ms INTEGER
);
CREATE INDEX mindspore_device_queue_source ON mindspore_device_queue (source_id);

-- One GetNext of the device (minddata_aicpu_{device}.txt, Ascend; minddata_getnext_profiling_{device}.txt,
-- GPU): how long it waited for a batch and how many were queued.
CREATE TABLE mindspore_get_next (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Line number: the GetNext's place in the file, the order MindInsight counts batches in.
    source_row INTEGER,
    -- Device of the file (the number in the file name; -1 when the name has none).
    rank_id INTEGER,
    -- Node name as written (GetNext_dequeue_wait on Ascend, GetNext on GPU).
    name TEXT,
    -- Start in ns (us in the Ascend file, ns in the GPU one).
    start_ns INTEGER,
    -- End in ns.
    end_ns INTEGER,
    -- Batches in the device's queue.
    queue_size INTEGER
);
CREATE INDEX mindspore_get_next_source ON mindspore_get_next (source_id);

-- MindSpore's other intermediates that carry figures MindInsight shows: the communication per step
-- (hccl_raw_{device}.csv, MindSpore's hccl parser), the FLOPs per operator (flops_{device}.txt) and
-- their summary (flops_summary_{device}.json, which the audit mindspore_flops_agree reconciles with the
-- operators), and the timeline's summary (ascend_timeline_summary_{device}.json,
-- gpu_timeline_summary_{device}.json).

-- One step of hccl_raw_{device}.csv: the device's communication time and wait in the step.
CREATE TABLE mindspore_hccl_step (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- CSV data-record number.
    source_row INTEGER,
    -- Device of the file (the number in the file name; -1 when the name has none).
    rank_id INTEGER,
    -- Step number (step_num).
    step_id INTEGER NOT NULL,
    -- Communication time of the step's operators on their main stream, in ns (communication_cost, ms).
    communication_ns INTEGER,
    -- Their Notify Wait time outside the links' own waits, in ns (wait_cost, ms).
    wait_ns INTEGER
);
CREATE INDEX mindspore_hccl_step_source ON mindspore_hccl_step (source_id);

-- One link of one step of hccl_raw_{device}.csv (its link_info): what went from one rank to another
-- over one transport in the step.
CREATE TABLE mindspore_hccl_link (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- CSV data-record number of the step.
    source_row INTEGER,
    -- Device of the file (the number in the file name; -1 when the name has none).
    rank_id INTEGER,
    -- Step number.
    step_id INTEGER NOT NULL,
    -- Sending rank (the link's name is {src}-{dst}).
    src_rank INTEGER,
    -- Receiving rank.
    dst_rank INTEGER,
    -- Transport: SDMA or RDMA.
    link_type TEXT,
    -- Transfer time in ns (ms in the file).
    time_ns INTEGER,
    -- Bytes moved (KB of 1000 bytes in the file).
    size_bytes INTEGER,
    -- Bandwidth in bytes/s (KB/s in the file): MindSpore's, of the link's transfers together.
    bandwidth_bytes_per_s REAL
);
CREATE INDEX mindspore_hccl_link_source ON mindspore_hccl_link (source_id);

-- One communication operator in one step of hccl_raw_{device}.csv (its communication_operator_cost).
CREATE TABLE mindspore_hccl_op (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- CSV data-record number of the step.
    source_row INTEGER,
    -- Device of the file (the number in the file name; -1 when the name has none).
    rank_id INTEGER,
    -- Step number the operator ran in (the record's step).
    step_id INTEGER NOT NULL,
    -- Operator as the step trace names it (stream_{s}_{i}_{operator}).
    name TEXT NOT NULL,
    -- Its communication time in ns (ms in the file).
    communication_ns INTEGER,
    -- Its wait in ns (ms in the file).
    wait_ns INTEGER
);
CREATE INDEX mindspore_hccl_op_source ON mindspore_hccl_op (source_id);

-- One AI Core operator of flops_{device}.txt: the floating-point work it does per run.
CREATE TABLE mindspore_flops_op (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Line number of the operator (1 = the first after the header).
    source_row INTEGER,
    -- Device of the file (the number in the file name; -1 when the name has none).
    rank_id INTEGER,
    -- Operator's full name, scope included.
    full_name TEXT NOT NULL,
    -- Its floating-point operations per run, in millions (MFLOPs; cube and vector together).
    mflops REAL,
    -- Its floating-point operations per second, in billions (GFLOPS; cube and vector together).
    gflops_per_s REAL,
    -- Its GFLOPS over the device's peak, percent (of the cube alone in the cube/vector layout).
    utilization_pct REAL,
    -- Of mflops, the cube unit's (NULL in the layout without the split).
    cube_mflops REAL,
    -- Of mflops, the vector unit's.
    vector_mflops REAL,
    -- The vector unit's utilization, percent.
    vector_utilization_pct REAL
);
CREATE INDEX mindspore_flops_op_source ON mindspore_flops_op (source_id);

-- flops_summary_{device}.json: the device's FLOPs as MindInsight's summary shows them (one row a file).
CREATE TABLE mindspore_flops_summary (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Always 1.
    source_row INTEGER,
    -- Device of the file (the number in the file name; -1 when the name has none).
    rank_id INTEGER,
    -- Floating-point operations of the operators together, in millions (FLOPs: MindSpore's sum of
    -- flops_{device}.txt's MFLOPs, rounded to 3 decimals).
    mflops REAL,
    -- Mean of the operators' GFLOPS (FLOPS).
    gflops_per_s REAL,
    -- Mean per step of the device's FLOPS over its peak, percent (FLOPS_Utilization).
    utilization_pct REAL
);
CREATE INDEX mindspore_flops_summary_source ON mindspore_flops_summary (source_id);

-- ascend_timeline_summary_{device}.json / gpu_timeline_summary_{device}.json: the figures MindInsight's
-- timeline page shows above MindSpore's timeline (one row a file).
CREATE TABLE mindspore_timeline_summary (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Always 1.
    source_row INTEGER,
    -- Device of the file (the number in the file name; -1 when the name has none).
    rank_id INTEGER,
    -- ascend or gpu (the file name's).
    device_type TEXT NOT NULL,
    -- Time the timeline spans, in ns (total_time, us).
    total_ns INTEGER,
    -- Streams (num_of_streams).
    streams INTEGER,
    -- Distinct operators (num_of_ops).
    operators INTEGER,
    -- Operator runs (op_exe_times).
    operator_runs INTEGER,
    -- Deepest scope of an operator name (max_scope_name_num).
    max_scope_depth INTEGER
);
CREATE INDEX mindspore_timeline_summary_source ON mindspore_timeline_summary (source_id);
