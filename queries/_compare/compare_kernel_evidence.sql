-- title: Compare: kernel evidence
-- description: The longest executions of a kernel in a run (every rank) with their input and row:
--     the answering kernels (kernel_answer), matched by name and, when exact, by operator type and
--     input shapes too (a GPU kernel's: its launching operator's, gpu_kernel_op, as compare_kernels
--     reads them); a GPU kineto trace's kernel is its slice (table slice, its slice id).
-- param run_id (integer, required): The run.
-- param name (text, required): The kernel name.
-- param exact (boolean, default false): Also match op_type and input_shapes.
-- param op_type (text, default null): Operator type (with exact).
-- param input_shapes (text, default null): Input shapes (with exact).
-- param limit (integer, default 3): How many executions.
-- column path: Input file.
-- column row: Row of the input.
-- column table_name: Table of the evidence row.
-- column rank_id: Rank.
-- column step_id: Step (null for a slice).
-- column value: Duration, in ns.
-- column what: What value is.
with final as (
    select s.path, k.source_row as row, case when k.id is null then 'slice' else 'kernel' end as table_name,
        k.rank_id, k.step_id, k.dur as value, coalesce(k.id, k.slice_id) as id
    from kernel_answer as k
    join source as s on s.id = k.source_id
    left join gpu_kernel_op as g on k.id is null and g.slice_id = k.slice_id
    where k.run_id = :run_id and k.name = :name
        and (:exact = 0 or (coalesce(k.op_type, g.op_type, '') = coalesce(:op_type, '')
            and coalesce(k.input_shapes, cast(g.input_shapes as text), '') = coalesce(:input_shapes, '')))
)

select path, row, table_name, rank_id, step_id, value, 'duration (ns)' as what
from final
order by value desc, id
limit :limit
