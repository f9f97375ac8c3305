-- title: Compare: communication time and size evidence
-- description: The communication operations of a run with the largest value of a compared
--     metric, with their input and row: elapse, transit, wait or synchronization time
--     (communication_time_answer), else the bytes moved (communication_bandwidth_answer).
-- param run_id (integer, required): The run.
-- param metric (text, required): The compared metric (mean_elapse_ns, mean_transit_ns, mean_wait_ns, mean_synchronization_ns; any other: bytes moved).
-- param op_type (text, required): The collective type (the operation's name, or its prefix).
-- param name_like (text, required): LIKE pattern of the names taken as the type (escape character \).
-- param rank_id (integer, default null): Only this rank; every rank when null.
-- param group_name (text, default null): The group (null: operations without a group).
-- param limit (integer, default 3): How many operations.
-- column path: Input file.
-- column row: Row of the input.
-- column table_name: Table of the evidence row.
-- column rank_id: Rank.
-- column step_id: Step.
-- column value: The metric's value (ns, or bytes).
-- column what: The column the value is.
with times as (
    select
        t.source_id, t.source_row, 'communication_time_answer' as table_name, t.rank_id, t.step_id,
        case :metric
            when 'mean_elapse_ns' then t.elapse_ns
            when 'mean_transit_ns' then t.transit_ns
            when 'mean_wait_ns' then t.wait_ns
            else t.synchronization_ns
        end as value,
        case :metric
            when 'mean_elapse_ns' then 'elapse_ns'
            when 'mean_transit_ns' then 'transit_ns'
            when 'mean_wait_ns' then 'wait_ns'
            else 'synchronization_ns'
        end as what,
        t.op_name, t.group_name
    from communication_time_answer as t
    where :metric in ('mean_elapse_ns', 'mean_transit_ns', 'mean_wait_ns', 'mean_synchronization_ns')
        and t.run_id = :run_id
),

sizes as (
    select
        t.source_id, t.source_row, 'communication_bandwidth_answer' as table_name, t.rank_id, t.step_id,
        t.transit_bytes as value, 'transit_bytes' as what, t.op_name, t.group_name
    from communication_bandwidth_answer as t
    where :metric not in ('mean_elapse_ns', 'mean_transit_ns', 'mean_wait_ns', 'mean_synchronization_ns')
        and t.run_id = :run_id
),

final as (
    select source_id, source_row, table_name, rank_id, step_id, value, what, op_name, group_name
    from times
    union all
    select source_id, source_row, table_name, rank_id, step_id, value, what, op_name, group_name
    from sizes
)

select s.path, f.source_row as row, f.table_name, f.rank_id, f.step_id, f.value, f.what
from final as f
join source as s on s.id = f.source_id
where (f.op_name = :op_type or f.op_name like :name_like escape '\')
    and (:rank_id is null or f.rank_id = :rank_id)
    and (f.group_name = :group_name or (f.group_name is null and :group_name is null))
order by f.value desc, f.source_id, f.source_row
limit :limit
