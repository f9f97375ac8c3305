-- MindSpore's average record of a step trace (issue 37): the last record of
-- step_trace_raw_{device}_detail_time.csv, step_num '-', MindSpore's mean of the steps after the first
-- (_record_average_info), which MindInsight's step trace summary and parallel analyser read as the
-- device's figure (its get_step_interval). It is derivable from the steps only while the file holds them
-- all: MindInsight's cluster_propose sample keeps five steps and an average record of many more (rank 0:
-- an iteration interval of 157,225 cycles, where its steps 2-5 average 83,907), so the record is kept as
-- written.

-- The average record of one device's step trace: its phases as the file states them.
CREATE TABLE mindspore_step_average (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- CSV data-record number of the average record.
    source_row INTEGER,
    -- Device of the file (the number in the file name; -1 when the name has none).
    rank_id INTEGER,
    -- Mean step time in ns (total).
    total_ns INTEGER,
    -- Mean iteration interval in ns (iteration_interval): the previous step's end to the forward pass.
    iteration_interval_ns INTEGER,
    -- Mean forward and backward pass in ns (fp_and_bp).
    fp_and_bp_ns INTEGER,
    -- Mean iteration tail in ns (tail).
    tail_ns INTEGER
);
CREATE INDEX mindspore_step_average_source ON mindspore_step_average (source_id);
