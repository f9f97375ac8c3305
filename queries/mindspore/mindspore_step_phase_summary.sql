-- title: MindSpore step phases, summary
-- description: Per run and MindSpore device, MindInsight's step trace summary
--     (get_summary_for_step_trace over MindSpore's average record): the mean step and its phases over
--     the steps after the first (the first, with no iteration interval, only when it is the only one),
--     as the answering input's average record states them (MindSpore's _record_average_info in
--     step_trace_raw_{device}_detail_time.csv, over every step even where the file keeps fewer), else
--     computed from its steps (the raw training trace writes no average), and each phase's share of the
--     mean step, MindInsight's percents (view mindspore_step_mean).
-- param run_id (integer, default null): Only this run; every run when null.
-- param rank_id (integer, default null): Only this device; every device when null.
-- column run_id: Run.
-- column rank_id: Device.
-- column mean_source: Where the means come from: average_record (the file's own) or steps (computed).
-- column total_steps: Steps of the device the input holds.
-- column averaged_steps: Of those, the steps MindSpore's average counts (a file cut short averages more).
-- column total_ns: Mean step time in ns.
-- column iteration_interval_ns: Mean iteration interval in ns.
-- column fp_and_bp_ns: Mean forward and backward pass in ns.
-- column tail_ns: Mean iteration tail in ns.
-- column iteration_interval_share: iteration_interval_ns / total_ns.
-- column fp_and_bp_share: fp_and_bp_ns / total_ns.
-- column tail_share: tail_ns / total_ns.
select
    run_id, rank_id, mean_source, total_steps, averaged_steps, total_ns, iteration_interval_ns, fp_and_bp_ns,
    tail_ns,
    1.0 * iteration_interval_ns / nullif(total_ns, 0) as iteration_interval_share,
    1.0 * fp_and_bp_ns / nullif(total_ns, 0) as fp_and_bp_share,
    1.0 * tail_ns / nullif(total_ns, 0) as tail_share
from mindspore_step_mean
where (:run_id is null or run_id = :run_id) and (:rank_id is null or rank_id = :rank_id)
order by run_id, rank_id
