-- title: MindSpore communication operators per step
-- description: Per run, MindSpore device and step, each communication operator with its communication and
--     wait time (hccl_raw_{device}.csv's communication_operator_cost: mindspore_hccl_op), the operator
--     table of MindInsight's cluster communication page (its hccl analyser); mindspore_hccl_links gives
--     the links.
-- param run_id (integer, default null): Only this run; every run when null.
-- param rank_id (integer, default null): Only this device; every device when null.
-- param step_id (integer, default null): Only this step; every step when null.
-- column run_id: Run.
-- column rank_id: Device.
-- column step_id: Step.
-- column name: The operator (stream_{s}_{i}_{operator}).
-- column communication_ns: Its communication time in ns.
-- column wait_ns: Its wait time in ns.
select s.run_id, o.rank_id, o.step_id, o.name, o.communication_ns, o.wait_ns
from mindspore_hccl_op as o
join source as s on s.id = o.source_id and s.status = 'ok'
where (:run_id is null or s.run_id = :run_id) and (:rank_id is null or o.rank_id = :rank_id)
    and (:step_id is null or o.step_id = :step_id)
order by s.run_id, o.rank_id, o.step_id, o.communication_ns + o.wait_ns desc, o.name
