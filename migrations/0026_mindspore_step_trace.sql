-- MindSpore's profiler intermediates (issue 37): the step trace MindSpore writes per device
-- (step_trace_raw_{device}_detail_time.csv) with MindSpore's own phases of a step, and the AI Core
-- time per operator it writes (aicore_intermediate_{device}_detail.csv). The steps themselves
-- also go to ``step``, but a step trace answers no fact yet (the derived step breakdown, built
-- from kernels, would show its steps empty). The AI Core time per operator type
-- (aicore_intermediate_{device}_type.csv) goes to ``op_statistic``, as torch_npu's
-- op_statistic.csv does. MindSpore writes its step points in system counter cycles of 100 MHz
-- (MindInsight's to_millisecond: 100000 per ms), so one cycle is 10 ns.

-- One step of a MindSpore step trace: its points and MindSpore's three phases
-- (iteration interval + forward and backward + iteration tail = the step).
CREATE TABLE mindspore_step_trace (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- CSV data-record number.
    source_row INTEGER,
    -- Device the step ran on (the number in the file name; -1 when the name has none).
    rank_id INTEGER,
    -- Step number (step_num).
    step_id INTEGER NOT NULL,
    -- Start of the step in ns: the end of the previous one (start_point).
    start_ns INTEGER,
    -- End of the step in ns (end_point).
    end_ns INTEGER,
    -- Step time in ns (total).
    total_ns INTEGER,
    -- Start of the forward pass in ns (fp_point).
    fp_point_ns INTEGER,
    -- End of the backward pass in ns (bp_point).
    bp_point_ns INTEGER,
    -- From the step's start to the forward pass, in ns (iteration_interval; 0 for the first step).
    iteration_interval_ns INTEGER,
    -- Forward and backward pass in ns (fp_and_bp).
    fp_and_bp_ns INTEGER,
    -- From the end of the backward pass to the step's end, in ns (tail).
    tail_ns INTEGER
);
CREATE INDEX mindspore_step_trace_source ON mindspore_step_trace (source_id);

-- One reduce (or parallel) operator in one step of a MindSpore step trace: each group of three
-- columns (duration, start point, end point) of the file, the groups that did not run in the
-- step (all three 0) left out.
CREATE TABLE mindspore_step_stream (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- CSV data-record number of the step.
    source_row INTEGER,
    -- Device the step ran on (the number in the file name; -1 when the name has none).
    rank_id INTEGER,
    -- Step number (step_num).
    step_id INTEGER NOT NULL,
    -- Stream the operator ran on (the number after stream_ in the column name).
    stream_id INTEGER,
    -- Its column name: stream_{stream}_{index}_{operator} or stream_{stream}_parallel_{index}.
    name TEXT NOT NULL,
    -- Start in ns (the group's _start_point).
    start_ns INTEGER,
    -- End in ns (the group's _end_point).
    end_ns INTEGER,
    -- Duration in ns (the group's own column).
    duration_ns INTEGER
);
CREATE INDEX mindspore_step_stream_source ON mindspore_step_stream (source_id);

-- AI Core time of one operator as MindSpore sums it (aicore_intermediate_{device}_detail.csv).
CREATE TABLE mindspore_aicore_op (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- CSV data-record number.
    source_row INTEGER,
    -- Device of the file (the number in the file name; -1 when the name has none).
    rank_id INTEGER,
    -- Operator's full name, scope included (full_kernel_time, e.g. Default/Cast-op10).
    full_name TEXT,
    -- Its AI Core time in ns (execution_time, ms in the file).
    time_ns INTEGER,
    -- Times it ran (execution_frequency).
    count INTEGER
);
