-- title: MindSpore step phases
-- description: Per run, MindSpore device and step, MindSpore's own phases of the step as MindInsight's
--     step trace shows them (step_trace_analyser): the iteration interval (the previous step's end
--     to the forward pass), the forward and backward pass, the iteration tail (the end of the backward
--     pass to the step's end), adding up to the step. From the input that answers the device's steps
--     (view mindspore_step_phase; warehouse check's mindspore_steps_agree compares the raw trace with
--     MindSpore's intermediate where a run holds both).
-- param run_id (integer, default null): Only this run; every run when null.
-- param rank_id (integer, default null): Only this device; every device when null.
-- column run_id: Run.
-- column rank_id: Device.
-- column step_id: Step number, from 1 as MindSpore numbers them.
-- column start_ns: Start of the step in ns (the previous step's end; the first step's forward pass).
-- column fp_point_ns: Start of the forward pass in ns.
-- column bp_point_ns: End of the backward pass in ns.
-- column end_ns: End of the step in ns.
-- column total_ns: Step time in ns.
-- column iteration_interval_ns: Iteration interval in ns.
-- column fp_and_bp_ns: Forward and backward pass in ns.
-- column tail_ns: Iteration tail in ns.
-- column source_kind: Kind of the input that answers (mindspore_training_trace_raw, mindspore_step_trace_csv).
select
    run_id, rank_id, step_id, start_ns, fp_point_ns, bp_point_ns, end_ns, total_ns, iteration_interval_ns,
    fp_and_bp_ns, tail_ns, source_kind
from mindspore_step_phase
where (:run_id is null or run_id = :run_id) and (:rank_id is null or rank_id = :rank_id)
order by run_id, rank_id, step_id
