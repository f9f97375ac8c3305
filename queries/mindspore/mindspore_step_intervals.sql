-- title: MindSpore step intervals per rank
-- description: Per run and MindSpore device, the step interval MindInsight's cluster pages and
--     parallel proposer compare across ranks (its parallel analyser's get_step_interval): the iteration
--     interval of the device's step trace average record, MindSpore's mean over the steps after the
--     first as the file states it (view mindspore_step_interval), with the rank's pipeline stage where
--     the cluster analysis files give it and how far it is above the mean of the run's devices (rule
--     mindspore_step_interval_outlier judges it).
-- param run_id (integer, default null): Only this run; every run when null.
-- param rank_id (integer, default null): Only this device; every device when null.
-- column run_id: Run.
-- column rank_id: Device (rank).
-- column stage_id: Its pipeline stage, from 1; null without a cluster analysis file for it.
-- column step_interval_ns: Mean iteration interval in ns.
-- column step_interval_ms: The same in ms (MindInsight shows it to 4 decimals).
-- column ranks_mean_ns: Mean step interval of the run's devices in ns.
-- column excess: How far above that mean the device is (0.2223 = 22.23 % above).
select
    run_id, rank_id, stage_id, step_interval_ns, step_interval_ns / 1000000.0 as step_interval_ms, ranks_mean_ns,
    excess
from mindspore_step_interval
where (:run_id is null or run_id = :run_id) and (:rank_id is null or rank_id = :rank_id)
order by run_id, rank_id
