-- MindSpore's raw profiler files (issue 37, seed 003), each a source of its own: the AI CPU
-- operators of DATA_PREPROCESS.dev.AICPU.{device}.slice_{n} with their stages (the AI CPU's own
-- counters, ticks and run points, kept as written: the file says no unit for them), and every
-- task of the HWTS log hwts.log.data.45.dev.profiler_default_tag.{device}.slice_{n}; the tasks the
-- Framework files beside it name are kernels too (kernel.origin mindspore_hwts). The steps of the
-- training trace training_trace.46.dev.profiler_default_tag.{device}.slice_{n} go to step and
-- mindspore_step_trace, as those of MindSpore's intermediate step_trace_raw_{device}_detail_time.csv
-- (migration 0026): of one run and device, the raw file answers the steps (the fact step, after
-- those of migration 0027) and the intermediate only where no raw file is; the audit
-- mindspore_steps_agree reconciles the two.
INSERT INTO fact_precedence (fact, kind, precedence) VALUES
    ('kernel', 'mindspore_hwts_raw', 5),
    ('step', 'mindspore_training_trace_raw', 5),
    ('step', 'mindspore_step_trace_csv', 6);

-- One task of a MindSpore HWTS log: a start record and the next end record of its stream and task id.
CREATE TABLE mindspore_hwts_task (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Record number (from 1, 64 bytes each) of the task's start record; a task the framework files
    -- name is the kernel of the same source_id and source_row.
    source_row INTEGER,
    -- Device of the log (the number in the file name; -1 when the name has none).
    rank_id INTEGER,
    -- Stream id as the log writes it.
    stream_id INTEGER,
    -- Task id.
    task_id INTEGER,
    -- Start in ns (system counter of 100 MHz, 10 ns a cycle).
    start_ns INTEGER,
    -- End in ns.
    end_ns INTEGER
);
CREATE INDEX mindspore_hwts_task_source ON mindspore_hwts_task (source_id);

-- One AI CPU task of DATA_PREPROCESS.dev.AICPU: its Thread record (the driver's and the kernel's
-- stages, dispatch and total time) and the Node record before it, when there is one (the operator).
CREATE TABLE mindspore_aicpu_op (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Task number, counted from 1 in file order.
    source_row INTEGER,
    -- Device of the file (the number in the file name; -1 when the name has none).
    rank_id INTEGER,
    -- Byte offset of the task's first record (its Node record, else its Thread record).
    byte_offset INTEGER,
    -- Operator name as the Node record writes it (Node:...); NULL for a Thread record without one.
    name TEXT,
    -- Operator type as MindSpore reads it (node_type_name): the name of a MindSpore AI CPU kernel
    -- (a Node record of three fields), the last scope's part before '-' of another (six fields).
    op_type TEXT,
    -- Run start, AI CPU counter as written (the Node record's second field).
    run_start INTEGER,
    -- Compute start (six-field Node records).
    compute_start INTEGER,
    -- Memory copy start (six-field Node records).
    memcpy_start INTEGER,
    -- Memory copy end (six-field Node records).
    memcpy_end INTEGER,
    -- Run end, AI CPU counter as written (the Node record's last field).
    run_end INTEGER,
    -- AI CPU thread that ran the task (Thread[n]); NULL, as the stages below, for a Node record
    -- without its Thread record.
    thread_id INTEGER,
    -- Device the Thread record names (process device[n]).
    device_id INTEGER,
    -- AI CPU core (aicpu[n]).
    aicpu_id INTEGER,
    -- Driver top half, tick as written (tickDrvTopHalf).
    tick_drv_top_half INTEGER,
    -- Driver bottom half, tick as written (tickDrvBottomHalf).
    tick_drv_bottom_half INTEGER,
    -- Before the kernel ran, tick as written (tickBeforeRun).
    tick_before_run INTEGER,
    -- After the kernel ran, tick as written (tickAfterRun).
    tick_after_run INTEGER,
    -- Dispatch time in ns (dispatchTime, us in the file).
    dispatch_ns INTEGER,
    -- Total time in ns (totalTime, us in the file).
    total_ns INTEGER
);
CREATE INDEX mindspore_aicpu_op_source ON mindspore_aicpu_op (source_id);
