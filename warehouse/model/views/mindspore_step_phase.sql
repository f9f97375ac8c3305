-- description: Each step of each MindSpore device with MindSpore's own phases, from the input that
--     answers the device's steps (step_source: the raw training trace where the run holds it, else
--     MindSpore's intermediate step_trace_raw_{device}_detail_time.csv), and whether MindSpore's average
--     record counts it (the steps after the first: the first has no iteration interval; the first
--     only when it is the only one), the figure MindInsight's step trace summary and proposer read.
-- column run_id: Run.
-- column rank_id: Device.
-- column source_id: Input the step came from.
-- column source_row: Its record in that input.
-- column source_kind: Kind of that input (mindspore_training_trace_raw, mindspore_step_trace_csv).
-- column step_id: Step number, from 1 as MindSpore numbers them.
-- column start_ns: Start of the step in ns (the previous step's end; the first step's forward pass).
-- column fp_point_ns: Start of the forward pass in ns.
-- column bp_point_ns: End of the backward pass in ns.
-- column end_ns: End of the step in ns.
-- column total_ns: Step time in ns.
-- column iteration_interval_ns: Iteration interval in ns (the previous step's end to the forward pass).
-- column fp_and_bp_ns: Forward and backward pass in ns.
-- column tail_ns: Iteration tail in ns (the end of the backward pass to the step's end).
-- column device_steps: Steps of the device.
-- column averaged: 1 when MindSpore's average record counts the step, else 0.
SELECT
    a.run_id, a.rank_id, t.source_id, t.source_row, a.kind AS source_kind, t.step_id, t.start_ns, t.fp_point_ns,
    t.bp_point_ns, t.end_ns, t.total_ns, t.iteration_interval_ns, t.fp_and_bp_ns, t.tail_ns,
    count(*) OVER (PARTITION BY a.run_id, a.rank_id) AS device_steps,
    CASE WHEN row_number() OVER (PARTITION BY a.run_id, a.rank_id ORDER BY t.step_id) > 1
        OR count(*) OVER (PARTITION BY a.run_id, a.rank_id) = 1 THEN 1 ELSE 0 END AS averaged
FROM step_source AS a
JOIN mindspore_step_trace AS t ON t.source_id = a.source_id
