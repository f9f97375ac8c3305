-- title: Compare: memory peak evidence
-- description: The memory record of a run's rank and component with the highest allocated (or
--     reserved) bytes, with its input and row: the sample the compared peak comes from.
-- param run_id (integer, required): The run.
-- param metric (text, required): The compared metric (peak_allocated_bytes; any other: reserved bytes).
-- param rank_id (integer, default null): The rank (null: records without a rank).
-- param component (text, default null): The component (null: records without one).
-- column path: Input file.
-- column row: Row of the input.
-- column table_name: Table of the evidence row.
-- column rank_id: Rank.
-- column step_id: Step (always null).
-- column value: Bytes.
-- column what: The column the value is.
with records as (
    select
        m.source_id, m.source_row, m.rank_id, m.ts,
        case when :metric = 'peak_allocated_bytes' then m.total_allocated_bytes
            else m.total_reserved_bytes end as value,
        case when :metric = 'peak_allocated_bytes' then 'total_allocated_bytes'
            else 'total_reserved_bytes' end as what
    from memory_record as m
    join answer_source as a on a.source_id = m.source_id and a.fact = 'memory'
    where a.run_id = :run_id
        and (m.rank_id = :rank_id or (m.rank_id is null and :rank_id is null))
        and (m.component = :component or (m.component is null and :component is null))
),

final as (
    select s.path, r.source_row as row, r.rank_id, r.value, r.what, r.ts
    from records as r
    join source as s on s.id = r.source_id
)

select path, row, 'memory_record' as table_name, rank_id, null as step_id, value, what
from final
order by value desc, ts, row
limit 1
