-- title: Communication time summary
-- description: Per run, rank and step, the HCCL operators' time split into transit, wait,
--     synchronisation and idle, from the input that answers the rank's communication
--     summary (communication_time_answer: analysis.db, else communication.json, else
--     cluster_communication.json; what msprof-analyze's communication_time_sum writes as
--     ClusterCommunicationTime): a rank holding two of them counts each operator once. The
--     files' own 'Total Op Info' rows are left out and the operators summed instead.
-- param run_id (integer, default null): Only this run; every run when null.
-- param rank_id (integer, default null): Only this rank; every rank when null.
-- param group_name (text, default null): Only this communication group (the hash after '@'); every
--     group when null.
-- param op_name (text, default null): Only this operator (its name before '@'); every operator
--     summed when null.
-- column run_id: Run.
-- column rank_id: Rank.
-- column step_id: Step number.
-- column op_count: Number of operators.
-- column elapse_ns: Summed elapsed time in ns.
-- column transit_ns: Time moving data in ns.
-- column wait_ns: Time waiting for peers in ns.
-- column synchronization_ns: Time synchronising in ns.
-- column idle_ns: Idle time in ns.
-- column wait_ratio: wait / (wait + transit).
-- column synchronization_ratio: synchronization / (synchronization + transit).
with ops as (
    select run_id, rank_id, step_id, elapse_ns, transit_ns, wait_ns, synchronization_ns, idle_ns
    from communication_time_answer
    where op_name <> 'Total Op Info' and (:run_id is null or run_id = :run_id)
        and (:group_name is null or group_name = :group_name) and (:op_name is null or op_name = :op_name)
        and (:rank_id is null or rank_id = :rank_id)
),

summed as (
    select
        run_id,
        rank_id,
        step_id,
        count(*) as op_count,
        sum(elapse_ns) as elapse_ns,
        sum(transit_ns) as transit_ns,
        sum(wait_ns) as wait_ns,
        sum(synchronization_ns) as synchronization_ns,
        sum(idle_ns) as idle_ns
    from ops
    group by run_id, rank_id, step_id
),

final as (
    select
        run_id, rank_id, step_id, op_count, elapse_ns, transit_ns, wait_ns, synchronization_ns, idle_ns,
        1.0 * wait_ns / nullif(wait_ns + transit_ns, 0) as wait_ratio,
        1.0 * synchronization_ns / nullif(synchronization_ns + transit_ns, 0) as synchronization_ratio
    from summed
)

select
    run_id, rank_id, step_id, op_count, elapse_ns, transit_ns, wait_ns, synchronization_ns, idle_ns,
    wait_ratio, synchronization_ratio
from final
order by run_id, rank_id, step_id
