-- title: MindSpore cluster steps
-- description: Per run, rank and step of a MindSpore cluster, the time split MindSpore's cluster
--     analysis writes for each rank (ascend_cluster_analyse_{mode}_{stages}_{ranks}_{rank}.csv:
--     mindspore_cluster_step), the figures MindInsight's cluster step trace and parallel analyser read:
--     computation, communication not hidden by it, and in a pipeline the stage time, the receive
--     operators' time between stages and the collective communication within a stage, with the rank's
--     pipeline stage; of the older data-parallel layout, each step's phases as the step trace gives them
--     (what MindInsight's cluster page shows of a data-parallel run). The file's mean (its last record)
--     is the row without a step.
-- param run_id (integer, default null): Only this run; every run when null.
-- param rank_id (integer, default null): Only this rank; every rank when null.
-- column run_id: Run.
-- column rank_id: Rank.
-- column parallel_mode: data-parallel, model-parallel or pipeline-parallel (from the file name).
-- column stage_id: The rank's pipeline stage, from 1 (MindInsight's numbering: view mindspore_cluster_rank).
-- column step_id: Step (null for the file's mean).
-- column computation_ns: Computation time in ns.
-- column communication_alone_ns: Communication not hidden by computation, in ns.
-- column stage_ns: Stage time in ns (pipeline parallel).
-- column receive_alone_ns: Receive operators' time between stages not hidden, in ns (pipeline parallel).
-- column collective_communication_alone_ns: Collective communication within the stage not hidden, in ns
--     (pipeline parallel).
-- column iteration_interval_ns: From the step's start to the forward pass, in ns (older data-parallel layout).
-- column fp_and_bp_ns: Forward and backward pass, in ns (older data-parallel layout).
-- column tail_ns: From the end of the backward pass to the step's end, in ns (older data-parallel layout).
select
    s.run_id, c.rank_id, c.parallel_mode, p.stage_id, c.step_id,
    c.computation_ns, c.communication_alone_ns, c.stage_ns, c.receive_alone_ns, c.collective_communication_alone_ns,
    c.iteration_interval_ns, c.fp_and_bp_ns, c.tail_ns
from mindspore_cluster_step as c
join source as s on s.id = c.source_id and s.status = 'ok'
join mindspore_cluster_rank as p on p.run_id = s.run_id and p.rank_id = c.rank_id
    and p.parallel_mode = c.parallel_mode and p.stage_num = c.stage_num and p.rank_size = c.rank_size
where (:run_id is null or s.run_id = :run_id) and (:rank_id is null or c.rank_id = :rank_id)
order by s.run_id, c.rank_id, c.step_id is null, c.step_id
