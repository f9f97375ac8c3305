-- title: MindSpore step phases, summary
-- description: Per run and MindSpore device, MindInsight's step trace summary
--     (get_summary_for_step_trace over MindSpore's average record): the mean step and its phases over
--     the steps after the first (the first, with no iteration interval, only when it is the only one),
--     as MindSpore's step trace parser averages them (_record_average_info), and each phase's share of
--     the mean step, MindInsight's percents. From the steps of mindspore_step_phases.
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
with steps as (
    select
        a.run_id, a.rank_id, t.step_id, t.total_ns, t.iteration_interval_ns, t.fp_and_bp_ns, t.tail_ns,
        count(*) over (partition by a.run_id, a.rank_id) as total_steps,
        row_number() over (partition by a.run_id, a.rank_id order by t.step_id) as place
    from step_source as a
    join mindspore_step_trace as t on t.source_id = a.source_id
    where (:run_id is null or a.run_id = :run_id) and (:rank_id is null or a.rank_id = :rank_id)
),

means as (
    select
        run_id, rank_id, total_steps, count(*) as averaged_steps, avg(total_ns) as total_ns,
        avg(iteration_interval_ns) as iteration_interval_ns, avg(fp_and_bp_ns) as fp_and_bp_ns, avg(tail_ns) as tail_ns
    from steps
    where place > 1 or total_steps = 1
    group by run_id, rank_id, total_steps
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
