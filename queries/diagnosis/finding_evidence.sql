-- title: Finding evidence
-- description: The input rows behind the findings (the evidence chain of seed 004): for each
--     evidence row, the input file (path and kind), the warehouse table and row it points at
--     (source_row, slice_id, kernel_id) and what the row shows.
-- param finding_id (integer, default null): Only this finding's evidence; all when null.
-- column finding_id: finding.id.
-- column finding_type: Rule of the finding.
-- column position: Order within the finding, from 0.
-- column source_id: Input file (source.id).
-- column path: Path of the input file.
-- column kind: Input format of the file.
-- column table_name: Warehouse table of the row.
-- column source_row: Row (or byte offset) of the row in its input.
-- column slice_id: Timeline slice of the row.
-- column kernel_id: kernel.id of the row.
-- column note: What the row shows.
with evidence as (
    select e.finding_id, f.finding_type, e.position, e.input_source_id as source_id, e.table_name, e.source_row, e.slice_id,
        e.kernel_id, e.note
    from finding_evidence as e
    join finding as f on f.id = e.finding_id
    where :finding_id is null or e.finding_id = :finding_id
),

final as (
    select e.finding_id, e.finding_type, e.position, e.source_id, s.path, s.kind, e.table_name, e.source_row,
        e.slice_id, e.kernel_id, e.note
    from evidence as e
    left join source as s on s.id = e.source_id
)

select finding_id, finding_type, position, source_id, path, kind, table_name, source_row, slice_id, kernel_id, note
from final
order by finding_id, position
