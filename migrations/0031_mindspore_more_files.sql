-- More of MindSpore's profiler files (issue 37), each a source of its own: the Framework host files, the
-- AI CPU's GetNext and the host's data transfer records (DATA_PREPROCESS.dev.AICPUMI, .TDT), and the
-- FLOPs per scope, dynamic-shape runs and per-rank cluster analysis that MindInsight shows.
--
-- MindSpore's framework description of one device: which
-- operator each device task runs (Framework.host[.vm].task_desc_info.{device}.slice_{n}), each operator's
-- type and tensors (Framework.host[.vm].graph_desc_info.{device}.slice_{n}), and the operators that mark a
-- step's points (Framework.host[.vm].point.{device}.slice_{n}); framework_raw_{device}.csv, the
-- intermediate MindSpore's framework parser writes from the first two, gives the tasks and operators
-- too. Of one run and device, the host files answer (the facts framework_task and framework_op) and the
-- CSV only where no host file is; the audit mindspore_framework_agrees reconciles the two. Likewise the
-- AI CPU's tasks (mindspore_aicpu_op, migration 0029): the raw DATA_PREPROCESS.dev.AICPU file answers (the
-- fact aicpu_op), output_data_preprocess_aicpu_{device}.txt, MindSpore's table written from it, only where
-- no raw file is; the audit mindspore_aicpu_agrees reconciles the two. And the GetNext records
-- (mindspore_get_next, migration 0030): the raw DATA_PREPROCESS.dev.AICPUMI file answers (the fact
-- get_next), minddata_aicpu_{device}.txt only where no raw file is (audit mindspore_get_next_agrees).
INSERT INTO fact_precedence (fact, kind, precedence) VALUES
    ('get_next', 'mindspore_get_next_raw', 1),
    ('get_next', 'mindspore_get_next_txt', 2),
    ('aicpu_op', 'mindspore_aicpu_raw', 1),
    ('aicpu_op', 'mindspore_aicpu_txt', 2),
    ('framework_task', 'mindspore_framework_task_desc', 1),
    ('framework_task', 'mindspore_framework_raw_csv', 2),
    ('framework_op', 'mindspore_framework_graph_desc', 1),
    ('framework_op', 'mindspore_framework_raw_csv', 2);

-- One device task and the operator it runs.
CREATE TABLE mindspore_framework_task (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Line number of the task file, or the CSV's data-record number.
    source_row INTEGER,
    -- Device of the file (the number in the file name; -1 when the name has none).
    rank_id INTEGER,
    -- Task id; below 25000 (MindSpore's threshold) a task id is the operator's on its stream only.
    task_id INTEGER NOT NULL,
    -- Stream id.
    stream_id INTEGER,
    -- Block dim of the operator's kernel (cores it runs on).
    block_dim INTEGER,
    -- Operator's full name, its scope included (full_kernel_name / full_op_name in the CSV).
    op_name TEXT NOT NULL
);
CREATE INDEX mindspore_framework_task_source ON mindspore_framework_task (source_id);

-- One operator of the graph: its type and tensors (tensors joined by ';' in id order, as kernel's are).
CREATE TABLE mindspore_framework_op (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Line number of the graph file, or the CSV's data-record number of the operator's first task.
    source_row INTEGER,
    -- Device of the file (the number in the file name; -1 when the name has none).
    rank_id INTEGER,
    -- Operator's full name, its scope included.
    op_name TEXT NOT NULL,
    -- Operator type (op_type / kernel_type); NULL when the file names none.
    op_type TEXT,
    -- Input shapes (dims joined by ',').
    input_shapes TEXT,
    -- Input data types as the file names them (the graph file's vm numbers by MindSpore's names, FLOAT32;
    -- the CSV's as written, NUMBER_TYPE_FLOAT32).
    input_dtypes TEXT,
    -- Input formats.
    input_formats TEXT,
    -- Output shapes.
    output_shapes TEXT,
    -- Output data types, named as the input ones.
    output_dtypes TEXT,
    -- Output formats.
    output_formats TEXT
);
CREATE INDEX mindspore_framework_op_source ON mindspore_framework_op (source_id);

-- One step point the framework names: the operator whose task the training trace's record of the tag marks.
CREATE TABLE mindspore_framework_point (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Line number.
    source_row INTEGER,
    -- Device of the file (the number in the file name; -1 when the name has none).
    rank_id INTEGER,
    -- The training trace's tag: 1 the forward pass's start, 2 the backward pass's end, then per reduce
    -- operator its start (odd) and end (even).
    tag INTEGER NOT NULL,
    -- Operator's full name.
    op_name TEXT NOT NULL
);
CREATE INDEX mindspore_framework_point_source ON mindspore_framework_point (source_id);

-- One batch the host's data transfer (TDT) enqueued for the device: a record of
-- DATA_PREPROCESS.dev.TDT.{device}.slice_{n} (no MindSpore parser reads the file).
CREATE TABLE mindspore_tdt_enqueue (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Record number, from 1 in file order.
    source_row INTEGER,
    -- Device of the file (the number in the file name; -1 when the name has none).
    rank_id INTEGER,
    -- Byte offset of the record.
    byte_offset INTEGER,
    -- The record's stamp as written ([n]; the file names no clock).
    stamp INTEGER,
    -- The transfer channel (source:, an id).
    channel TEXT,
    -- The batch's number in its channel (index:, from 1).
    batch_index INTEGER,
    -- size: as written (no unit given; the real sample's values run 0 to 128, a queue's depth).
    size INTEGER
);
CREATE INDEX mindspore_tdt_enqueue_source ON mindspore_tdt_enqueue (source_id);

-- One link of flops_scope_{device}.json, MindSpore's FLOPs per scope (the Sankey diagram MindInsight draws):
-- a scope within its parent and the MFLOPs of the operators under it. The audit mindspore_flops_scope_agrees
-- reconciles the links from Total with the device's FLOPs summary.
CREATE TABLE mindspore_flops_scope (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- The link's place in data.links, from 1.
    source_row INTEGER,
    -- Device of the file (the number in the file name; -1 when the name has none).
    rank_id INTEGER,
    -- The parent scope (the link's source): Total above the subgraphs, else a scope name.
    parent_scope TEXT NOT NULL,
    -- The scope (the link's target): a subgraph (Default, Gradients) or {scope}({subgraph}).
    scope TEXT NOT NULL,
    -- Floating-point operations of the operators under it, in millions (value, rounded to 3 decimals).
    mflops REAL
);
CREATE INDEX mindspore_flops_scope_source ON mindspore_flops_scope (source_id);

-- One run of an operator, or of a GPU kernel it launched, of a dynamic-shape graph in one step
-- (dynamic_shape_info_{device}.json, what MindInsight's dynamic shape pages show).
CREATE TABLE mindspore_dynamic_shape_op (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- The run's place in the file (operators first, then kernels), from 1.
    source_row INTEGER,
    -- Device of the file (the number in the file name; -1 when the name has none).
    rank_id INTEGER,
    -- What ran: operator, or kernel (a GPU kernel, named by op_name, its operator op_full_name).
    record TEXT NOT NULL,
    -- Step number.
    step_id INTEGER NOT NULL,
    -- Where the operator ran (op_side: gpu, cpu, ...); NULL for a kernel.
    op_side TEXT,
    -- Operator type (cuLaunchKernel for a kernel).
    op_type TEXT,
    -- Operator name (op_name), or the kernel's function.
    op_name TEXT,
    -- A kernel's operator, its scope included; NULL for an operator.
    op_full_name TEXT,
    -- A kernel's block dims as written (x,y,z); NULL for an operator.
    block_dim TEXT,
    -- A kernel's grid dims as written (x,y,z); NULL for an operator.
    grid_dim TEXT,
    -- Duration in ns (dur, us in the file).
    dur_ns INTEGER,
    -- An operator's input shapes, a JSON list of the shapes as written (shape_info); NULL for a kernel.
    shapes TEXT
);
CREATE INDEX mindspore_dynamic_shape_op_source ON mindspore_dynamic_shape_op (source_id);

-- One step of one rank of a parallel run, split into computation and the communication not hidden by it
-- (ascend_cluster_analyse_{mode}_{stages}_{ranks}_{rank}.csv, what MindInsight's cluster and parallel
-- pages and its parallel proposer read), or the file's last record, the mean of its steps.
CREATE TABLE mindspore_cluster_step (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Record number, from 1.
    source_row INTEGER,
    -- The rank (the file name's last number).
    rank_id INTEGER,
    -- The run's parallel mode (data-parallel, model-parallel, pipeline-parallel).
    parallel_mode TEXT,
    -- Pipeline stages of the run.
    stage_num INTEGER,
    -- Ranks of the run.
    rank_size INTEGER,
    -- Step number (the record number); NULL for the last record, the mean of the steps.
    step_id INTEGER,
    -- Computation in ns (computation_time, ms in the file).
    computation_ns INTEGER,
    -- Communication not hidden by computation, ns (communication_alone_time).
    communication_alone_ns INTEGER,
    -- The pipeline stage's time, ns (stage_time; NULL outside pipeline parallelism).
    stage_ns INTEGER,
    -- Receiving from the previous stage not hidden by computation, ns (receive_alone_time).
    receive_alone_ns INTEGER,
    -- Collective communication within the stage not hidden by computation, ns (collective_communication_alone_time).
    collective_communication_alone_ns INTEGER
);
CREATE INDEX mindspore_cluster_step_source ON mindspore_cluster_step (source_id);

-- One value a capture's metadata file states, as written: msprof's start_info.{N}, end_info.{N} and
-- info.json.{N} of a device (its key the path to the value, DeviceInfo[0].ai_core_num), MindSpore's
-- host_start.log.{N} (Device0.clock_realtime) and msprof's .done marks (filesize; the audit
-- done_marks_agree compares it with the marked file).
CREATE TABLE capture_info (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- The value's place in the file, from 1.
    source_row INTEGER,
    -- Rank the file is about (its folders', or the device number in a MindSpore file name).
    rank_id INTEGER,
    -- The value's key (a JSON value's path, a section-prefixed key, filesize).
    key TEXT NOT NULL,
    -- The value as written (text; a JSON number as written, true/false, NULL for null).
    value TEXT
);
CREATE INDEX capture_info_source ON capture_info (source_id);
