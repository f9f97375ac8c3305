-- title: Communication operator times
-- description: Per run, rank, step and communication group, each HCCL operator's times as the
--     profiler's communication summary that answers the rank states them
--     (communication_time_answer: analysis.db, else communication.json, else
--     cluster_communication.json; 'Total Op Info' rows left out), with its SDMA and RDMA bandwidth
--     (communication_bandwidth_answer): the operator table of MindStudio Insight's Communication
--     page (communication/operatorDetails, DbClusterDataBase.cpp QueryAllOperators).
-- param run_id (integer, default null): Only this run; every run when null.
-- param rank_id (integer, default null): Only this rank; every rank when null.
-- param step_id (integer, default null): Only this step; every step when null.
-- param group_name (text, default null): Only this communication group; every group when null.
-- column run_id: Run.
-- column rank_id: Rank.
-- column step_id: Step number.
-- column group_name: Communication group (the hash after '@').
-- column op_name: Operator name, e.g. hcom_allReduce__483_2.
-- column ts: Start in ns.
-- column elapse_ns: Elapsed time in ns.
-- column transit_ns: Time moving data in ns.
-- column synchronization_ns: Time synchronising in ns.
-- column wait_ns: Time waiting for peers in ns.
-- column idle_ns: Idle time in ns.
-- column synchronization_ratio: synchronization / (synchronization + transit), 0 without synchronisation.
-- column wait_ratio: wait / (wait + transit), 0 without waiting.
-- column sdma_bytes_per_s: The operator's SDMA bandwidth in bytes/s (0 when none).
-- column rdma_bytes_per_s: The operator's RDMA bandwidth in bytes/s (0 when none).
with timed as (
    select run_id, rank_id, step_id, group_name, op_name, ts, elapse_ns, transit_ns, synchronization_ns, wait_ns, idle_ns
    from communication_time_answer
    where op_name <> 'Total Op Info'
        and (:run_id is null or run_id = :run_id) and (:rank_id is null or rank_id = :rank_id)
        and (:step_id is null or step_id = :step_id) and (:group_name is null or group_name = :group_name)
),

bandwidth as (
    select
        run_id, rank_id, step_id, group_name, op_name,
        max(case when transport_type = 'SDMA' then coalesce(bandwidth_bytes_per_s, 0) else 0 end) as sdma_bytes_per_s,
        max(case when transport_type = 'RDMA' then coalesce(bandwidth_bytes_per_s, 0) else 0 end) as rdma_bytes_per_s
    from communication_bandwidth_answer
    where op_name <> 'Total Op Info'
        and (:run_id is null or run_id = :run_id) and (:rank_id is null or rank_id = :rank_id)
        and (:step_id is null or step_id = :step_id) and (:group_name is null or group_name = :group_name)
    group by run_id, rank_id, step_id, group_name, op_name
),

final as (
    select
        t.run_id, t.rank_id, t.step_id, t.group_name, t.op_name, t.ts, t.elapse_ns, t.transit_ns,
        t.synchronization_ns, t.wait_ns, t.idle_ns,
        case when t.synchronization_ns = 0 then 0
            else 1.0 * t.synchronization_ns / (t.synchronization_ns + t.transit_ns) end as synchronization_ratio,
        case when t.wait_ns = 0 then 0 else 1.0 * t.wait_ns / (t.wait_ns + t.transit_ns) end as wait_ratio,
        coalesce(b.sdma_bytes_per_s, 0) as sdma_bytes_per_s,
        coalesce(b.rdma_bytes_per_s, 0) as rdma_bytes_per_s
    from timed as t
    left join bandwidth as b
        on b.run_id = t.run_id and b.rank_id = t.rank_id and b.step_id = t.step_id
        and b.group_name = t.group_name and b.op_name = t.op_name
)

select
    run_id, rank_id, step_id, group_name, op_name, ts, elapse_ns, transit_ns, synchronization_ns, wait_ns, idle_ns,
    synchronization_ratio, wait_ratio, sdma_bytes_per_s, rdma_bytes_per_s
from final
order by run_id, rank_id, step_id, group_name, ts, op_name
