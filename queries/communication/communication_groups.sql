-- title: Communication groups
-- description: Per run, step and communication group, the group's ranks, its process-group name
--     and how many operators it ran: the groups the Communication page lets a user pick (MindStudio
--     Insight's communication/matrix/group). A group is each name after '@' in the profiler's
--     communication summary that answers each rank (communication_time_answer,
--     communication_matrix_answer; 'Total Op Info' rows left out). Its ranks are the ranks whose
--     operators name it in the step, as compare_communication matches groups (the summary states
--     no group's members for every export); its process-group name (tp, dp, pp, ...) is
--     communication_group.json's or cluster_analysis.db's for that group name, when one says it.
-- param run_id (integer, default null): Only this run; every run when null.
-- param step_id (integer, default null): Only this step; every step when null.
-- column run_id: Run.
-- column step_id: Step number.
-- column group_name: The group's name in the summary (the hash after '@').
-- column group_ranks: The ranks whose operators name the group in the step, ascending, e.g. 0,1.
-- column rank_count: Number of those ranks.
-- column pg_name: The framework's process-group name of the group, when an input says it.
-- column op_count: Number of distinct operators of the group in the step's time summary.
-- column matrix_op_count: Number of distinct operators (or operator families) of the group in the
--     step's matrix.
with timed as (
    select run_id, step_id, group_name, rank_id, op_name
    from communication_time_answer
    where op_name <> 'Total Op Info' and group_name is not null
        and (:run_id is null or run_id = :run_id) and (:step_id is null or step_id = :step_id)
),

traffic as (
    select run_id, step_id, group_name, count(distinct op_name) as matrix_op_count
    from communication_matrix_answer
    where op_name <> 'Total Op Info' and group_name is not null
        and (:run_id is null or run_id = :run_id) and (:step_id is null or step_id = :step_id)
    group by run_id, step_id, group_name
),

ordered_members as (
    select distinct run_id, step_id, group_name, rank_id
    from timed
    order by run_id, step_id, group_name, rank_id
),

members as (
    select run_id, step_id, group_name, group_concat(rank_id, ',') as group_ranks, count(*) as rank_count
    from ordered_members
    group by run_id, step_id, group_name
),

operators as (
    select run_id, step_id, group_name, count(distinct op_name) as op_count
    from timed
    group by run_id, step_id, group_name
),

named as (
    select s.run_id, g.group_name, max(g.pg_name) as pg_name
    from communication_group as g
    join source as s on s.id = g.source_id and s.status = 'ok'
    where g.group_name is not null and g.pg_name is not null and g.pg_name <> ''
    group by s.run_id, g.group_name
),

final as (
    select
        m.run_id, m.step_id, m.group_name, m.group_ranks, m.rank_count, n.pg_name, o.op_count,
        coalesce(t.matrix_op_count, 0) as matrix_op_count
    from members as m
    join operators as o on o.run_id = m.run_id and o.step_id = m.step_id and o.group_name = m.group_name
    left join traffic as t on t.run_id = m.run_id and t.step_id = m.step_id and t.group_name = m.group_name
    left join named as n on n.run_id = m.run_id and n.group_name = m.group_name
)

select run_id, step_id, group_name, group_ranks, rank_count, pg_name, op_count, matrix_op_count
from final
order by run_id, step_id, rank_count desc, group_ranks, group_name
