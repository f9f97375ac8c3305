-- title: MindSpore AI Core operators
-- description: Per run and MindSpore device, each AI Core operator with its mean execution time and
--     how often it ran (aicore_intermediate_{device}_detail.csv, else the older profiler's
--     output_op_compute_time_{device}.txt or output_op_compute_time_detail_{device}.txt: answer_source,
--     fact aicore_op), named and typed by MindSpore's framework description of the same run and device
--     (the Framework host files, else framework_raw_{device}.csv: fact framework_op; else the type the
--     older detail file gives): the operator table MindInsight's AI Core detail analyser shows
--     (aicore_detail), in the file's order.
-- param run_id (integer, default null): Only this run; every run when null.
-- param rank_id (integer, default null): Only this device; every device when null.
-- column run_id: Run.
-- column rank_id: Device.
-- column full_name: The operator's full name (scope and name; null where the older detail file gives none).
-- column kernel_name: Its name without the scope.
-- column op_type: Its type, from the framework description (else the older detail file's; null without).
-- column avg_ns: Mean execution time in ns.
-- column count: How often it ran (null where the file does not say).
-- column total_ns: avg_ns * count.
-- column input_shapes: Input shapes (';' between inputs), from the framework description.
-- column input_dtypes: Input data types.
-- column output_shapes: Output shapes.
-- column output_dtypes: Output data types.
with framework as (
    select a.run_id, f.rank_id, f.op_name, f.op_type, f.input_shapes, f.input_dtypes, f.output_shapes, f.output_dtypes,
        row_number() over (partition by a.run_id, f.rank_id, f.op_name order by f.source_id, f.source_row) as copy
    from mindspore_framework_op as f
    join answer_source as a on a.source_id = f.source_id and a.fact = 'framework_op'
),

final as (
    select
        a.run_id, o.rank_id, o.full_name,
        coalesce(o.op_name, replace(o.full_name, rtrim(o.full_name, replace(o.full_name, '/', '')), '')) as kernel_name,
        coalesce(f.op_type, o.op_type) as op_type, o.time_ns as avg_ns, o.count, o.time_ns * o.count as total_ns,
        f.input_shapes, f.input_dtypes, f.output_shapes, f.output_dtypes, o.source_id, o.source_row
    from mindspore_aicore_op as o
    join answer_source as a on a.source_id = o.source_id and a.fact = 'aicore_op'
    left join framework as f on f.run_id = a.run_id and f.rank_id = o.rank_id and f.op_name = o.full_name and f.copy = 1
    where (:run_id is null or a.run_id = :run_id) and (:rank_id is null or o.rank_id = :rank_id)
)

select
    run_id, rank_id, full_name, kernel_name, op_type, avg_ns, count, total_ns, input_shapes, input_dtypes,
    output_shapes, output_dtypes
from final
order by run_id, rank_id, source_id, source_row
