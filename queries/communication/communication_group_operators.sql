-- title: Communication operators of a group
-- description: Per run, step and communication group, each operator the profiler's
--     communication summary names (communication_time_answer, communication_matrix_answer; 'Total
--     Op Info' rows left out), with the number of ranks it has times for and the number of matrix
--     entries it has: the operator choices of MindStudio Insight's Communication page
--     (communication/duration/operatorNames lists the timed ones, communication/matrix/sortOpNames
--     the ones of the matrix, where an operator family such as allreduce-top1 may stand for several).
-- param run_id (integer, default null): Only this run; every run when null.
-- param step_id (integer, default null): Only this step; every step when null.
-- param group_name (text, default null): Only this group; every group when null.
-- column run_id: Run.
-- column step_id: Step number.
-- column group_name: The group's name in the summary (the hash after '@').
-- column op_name: Operator name (or operator family in the matrix), the key before '@'.
-- column timed_ranks: Number of ranks with the operator's times (0: only in the matrix).
-- column matrix_entries: Number of its matrix entries (rank pairs and transports; 0: not in the matrix).
with named as (
    select run_id, step_id, group_name, op_name, rank_id, 'time' as part
    from communication_time_answer
    where op_name <> 'Total Op Info' and group_name is not null
        and (:run_id is null or run_id = :run_id) and (:step_id is null or step_id = :step_id)
        and (:group_name is null or group_name = :group_name)
    union all
    select run_id, step_id, group_name, op_name, null as rank_id, 'matrix' as part
    from communication_matrix_answer
    where op_name <> 'Total Op Info' and group_name is not null
        and (:run_id is null or run_id = :run_id) and (:step_id is null or step_id = :step_id)
        and (:group_name is null or group_name = :group_name)
),

final as (
    select
        run_id, step_id, group_name, op_name,
        count(distinct case when part = 'time' then rank_id end) as timed_ranks,
        sum(case when part = 'matrix' then 1 else 0 end) as matrix_entries
    from named
    group by run_id, step_id, group_name, op_name
)

select run_id, step_id, group_name, op_name, timed_ranks, matrix_entries
from final
order by run_id, step_id, group_name, op_name
