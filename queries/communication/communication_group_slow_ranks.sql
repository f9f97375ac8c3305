-- title: Slow ranks of a communication group
-- description: Per run, step and communication group, each rank's communication time (its
--     operators' elapse summed, from the profiler's communication summary that answers the rank:
--     communication_time_answer; 'Total Op Info' rows left out) against the rank with the most:
--     in a collective every rank waits in it for the last to arrive, so the rank that spent the
--     longest there waited for the others, and a rank that spent at least 10 % less arrived late,
--     the likely slow one. As MindStudio Insight's Potential Slow Rank List (ClusterService.cpp
--     FindSlowRankByCommDuration, CheckOpNameList): the three ranks with the least time that are
--     10 % short are slow; a group of one rank has none; a group running point-to-point or
--     all-to-all-v operators (send, receive, recv, all2allv, alltoallv in a name), whose ranks
--     need not wait alike, is marked so that no rank of it is called slow.
-- param run_id (integer, default null): Only this run; every run when null.
-- param step_id (integer, default null): Only this step; every step when null.
-- param group_name (text, default null): Only this group; every group when null.
-- column run_id: Run.
-- column step_id: Step number.
-- column group_name: Communication group (the hash after '@').
-- column rank_id: Rank.
-- column comm_ns: The rank's communication time in the group and step, in ns.
-- column waiting_rank_id: The group's rank with the most communication time (the lowest id of equals).
-- column waiting_comm_ns: Its communication time in ns.
-- column shortfall_ns: waiting_comm_ns - comm_ns.
-- column shortest_order: The rank's place from the least communication time (1: least; equals by rank id).
-- column unequal_waits: 1 when the group runs point-to-point or all-to-all-v operators, else 0.
-- column slow: 1 when the rank is among the three with the least time and 10 % or more short of the
--     waiting rank, in a group of two ranks or more with unequal_waits 0; else 0.
with timed as (
    select run_id, step_id, group_name, rank_id, elapse_ns, lower(op_name) as lowered
    from communication_time_answer
    where op_name <> 'Total Op Info' and group_name is not null
        and (:run_id is null or run_id = :run_id) and (:step_id is null or step_id = :step_id)
        and (:group_name is null or group_name = :group_name)
),

per_rank as (
    select
        run_id, step_id, group_name, rank_id, sum(elapse_ns) as comm_ns,
        max(case when lowered like '%send%' or lowered like '%receive%' or lowered like '%recv%'
            or lowered like '%all2allv%' or lowered like '%alltoallv%' then 1 else 0 end) as unequal_op
    from timed
    group by run_id, step_id, group_name, rank_id
),

ranked as (
    select
        run_id, step_id, group_name, rank_id, comm_ns,
        max(unequal_op) over (partition by run_id, step_id, group_name) as unequal_waits,
        count(*) over (partition by run_id, step_id, group_name) as ranks,
        row_number() over (partition by run_id, step_id, group_name order by comm_ns desc, rank_id) as longest_order,
        row_number() over (partition by run_id, step_id, group_name order by comm_ns, rank_id) as shortest_order
    from per_rank
),

waiting as (
    select run_id, step_id, group_name, rank_id as waiting_rank_id, comm_ns as waiting_comm_ns
    from ranked
    where longest_order = 1
),

final as (
    select
        r.run_id, r.step_id, r.group_name, r.rank_id, r.comm_ns, w.waiting_rank_id, w.waiting_comm_ns,
        w.waiting_comm_ns - r.comm_ns as shortfall_ns, r.shortest_order, r.unequal_waits,
        case
            when r.ranks > 1 and r.unequal_waits = 0 and r.shortest_order <= 3
                and w.waiting_comm_ns - r.comm_ns >= 0.1 * w.waiting_comm_ns then 1
            else 0
        end as slow
    from ranked as r
    join waiting as w on w.run_id = r.run_id and w.step_id = r.step_id and w.group_name = r.group_name
)

select
    run_id, step_id, group_name, rank_id, comm_ns, waiting_rank_id, waiting_comm_ns, shortfall_ns, shortest_order,
    unequal_waits, slow
from final
order by run_id, step_id, group_name, shortest_order
