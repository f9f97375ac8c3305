-- title: MindSpore step phases, summary
-- description: Per run and MindSpore device, MindInsight's step trace summary
--     (get_summary_for_step_trace over MindSpore's average record): the mean step and its phases over
--     the steps after the first (the first, with no iteration interval, only when it is the only one),
--     as MindSpore's step trace parser averages them (_record_average_info), and each phase's share of
--     the mean step, MindInsight's percents (view mindspore_step_phase).
-- param run_id (integer, default null): Only this run; every run when null.
-- param rank_id (integer, default null): Only this device; every device when null.
-- column run_id: Run.
-- column rank_id: Device.
-- column total_steps: Steps of the device.
-- column averaged_steps: Steps the means are over.
-- column total_ns: Mean step time in ns.
-- column iteration_interval_ns: Mean iteration interval in ns.
-- column fp_and_bp_ns: Mean forward and backward pass in ns.
-- column tail_ns: Mean iteration tail in ns.
-- column iteration_interval_share: iteration_interval_ns / total_ns.
-- column fp_and_bp_share: fp_and_bp_ns / total_ns.
-- column tail_share: tail_ns / total_ns.
with means as (
    select
        run_id, rank_id, device_steps as total_steps, count(*) as averaged_steps, avg(total_ns) as total_ns,
        avg(iteration_interval_ns) as iteration_interval_ns, avg(fp_and_bp_ns) as fp_and_bp_ns, avg(tail_ns) as tail_ns
    from mindspore_step_phase
    where averaged = 1 and (:run_id is null or run_id = :run_id) and (:rank_id is null or rank_id = :rank_id)
    group by run_id, rank_id, device_steps
),

final as (
    select
        run_id, rank_id, total_steps, averaged_steps, total_ns, iteration_interval_ns, fp_and_bp_ns, tail_ns,
        iteration_interval_ns / nullif(total_ns, 0) as iteration_interval_share,
        fp_and_bp_ns / nullif(total_ns, 0) as fp_and_bp_share,
        tail_ns / nullif(total_ns, 0) as tail_share
    from means
)

select
    run_id, rank_id, total_steps, averaged_steps, total_ns, iteration_interval_ns, fp_and_bp_ns, tail_ns,
    iteration_interval_share, fp_and_bp_share, tail_share
from final
order by run_id, rank_id
