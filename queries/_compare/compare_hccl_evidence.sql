-- title: Compare: collective evidence
-- description: The longest executions of a collective in a run with their input and row: HCCL
--     operators of the type, or named after it (the type, an underscore, anything).
-- param run_id (integer, required): The run.
-- param op_type (text, required): The collective type.
-- param name_like (text, required): LIKE pattern of the names taken as the type (escape character \).
-- param rank_id (integer, default null): Only this rank; every rank when null.
-- param group_name (text, default null): Only this group; every group when null.
-- param limit (integer, default 3): How many executions.
-- column path: Input file.
-- column row: Row of the input.
-- column table_name: Table of the evidence row.
-- column rank_id: Rank.
-- column step_id: Step (always null).
-- column value: Duration, in ns.
-- column what: What value is.
select
    s.path, t.source_row as row, t.table_name, t.rank_id, null as step_id, t.dur as value,
    'duration (ns)' as what
from hccl_operator as t
join source as s on s.id = t.source_id
where t.run_id = :run_id and (t.op_type = :op_type or t.name like :name_like escape '\')
    and (:rank_id is null or t.rank_id = :rank_id)
    and (:group_name is null or t.group_name = :group_name)
order by t.dur desc, t.source_id, t.source_row
limit :limit
