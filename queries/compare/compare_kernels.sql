-- title: Compare kernels of two runs
-- description: The device kernels of two runs side by side (issue 17), over every rank of each run:
--     count, total and mean time in each, the time the run adds (difference of the totals) and the
--     ratio of the means. Kernels are the answering ones (kernel_answer: a rank's kernel input, or
--     a GPU kineto trace's kernels; HCCL operators and NCCL kernels left out). Matched by name, op_type and input_shapes
--     first; what is left of either run is then matched by name alone; what is still left, by what
--     it computes: op_type and input_shapes under another name (a kernel a different device or CANN
--     names otherwise; base_name gives the baseline's name); matched_by says which; the rest is in
--     one run only ('run only': new in the run; 'base only': gone). A kineto trace's kernel has the
--     op_type and input_shapes of the operator that launched it (gpu_kernel_op: e.g. aten::addmm and
--     its input dims), so one GPU's ampere_sgemm matches another's volta_sgemm. Ordered by the time
--     they add, largest first (what got faster or went away last).
--     run_id null: the run that started last; base_run_id null: the run that started just before
--     run_id (runs in start order, a run whose start is unknown first, by id).
-- param run_id (integer, default null): The run compared (the new one); the run that started last when null.
-- param base_run_id (integer, default null): The baseline run; the run that started just before run_id when null.
-- column run_id: The run compared.
-- column base_run_id: The baseline run.
-- column name: Kernel name (in the run; the baseline's for 'base only'; the first by name when
--     several names of one side are matched by one op_type and input_shapes).
-- column base_name: The baseline's kernel name, when it differs from name (matched by op_type and
--     input_shapes); null otherwise.
-- column op_type: Operator type (of the run, else of the baseline; null when a name match spans several); a GPU
--     kernel's launching operator.
-- column input_shapes: Input shapes (likewise; null when a name match spans several).
-- column matched_by: How the two runs' kernels were matched: 'name, op_type, input_shapes', 'name',
--     'op_type, input_shapes' (another name), or 'run only' / 'base only'.
-- column base_count: Executions in the baseline (0 when none).
-- column base_total_ns: Summed duration in the baseline, in ns (0 when none).
-- column base_mean_ns: Mean duration in the baseline, in ns (null when none).
-- column run_count: Executions in the run (0 when none).
-- column run_total_ns: Summed duration in the run, in ns (0 when none).
-- column run_mean_ns: Mean duration in the run, in ns (null when none).
-- column difference_ns: run_total_ns - base_total_ns: the time the run adds (negative: saves).
-- column ratio: run_mean_ns / base_mean_ns (2: twice as slow per execution); null when in one run only.
with pair as (
    -- the run (default: the latest) and its baseline (default: the run before it)
    select h.run_id, coalesce(:base_run_id, h.previous_run_id) as base_run_id
    from run_history as h
    where h.run_id = coalesce(:run_id, (select max(run_id) from run_history where position = (select max(position) from run_history)))
),
kernels as (
    -- a GPU kernel (no kernel row, k.id null) computes what its launching operator does (gpu_kernel_op;
    -- its shapes cast: an export of no shapes types the column as a real)
    select
        k.run_id, k.name, coalesce(k.op_type, g.op_type) as op_type,
        coalesce(k.input_shapes, cast(g.input_shapes as text)) as input_shapes, k.dur
    from kernel_answer as k
    join pair as p on k.run_id = p.run_id or k.run_id = p.base_run_id
    left join gpu_kernel_op as g on k.id is null and g.slice_id = k.slice_id
),

grouped as (
    select
        k.run_id,
        case when k.run_id = p.run_id then 'run' else 'base' end as side,
        k.name,
        coalesce(k.op_type, '') as op_key,
        coalesce(k.input_shapes, '') as shapes_key,
        max(k.op_type) as op_type,
        max(k.input_shapes) as input_shapes,
        count(*) as count,
        sum(k.dur) as total_ns
    from kernels as k
    cross join pair as p
    group by k.run_id, case when k.run_id = p.run_id then 'run' else 'base' end, k.name,
        coalesce(k.op_type, ''), coalesce(k.input_shapes, '')
),

base_groups as (
    select name, op_key, shapes_key, op_type, input_shapes, count, total_ns
    from grouped
    where side = 'base'
),

run_groups as (
    select name, op_key, shapes_key, op_type, input_shapes, count, total_ns
    from grouped
    where side = 'run'
),

exact as (
    select
        r.name, r.op_type, r.input_shapes, 'name, op_type, input_shapes' as matched_by,
        b.count as base_count, b.total_ns as base_total_ns, r.count as run_count, r.total_ns as run_total_ns
    from run_groups as r
    join base_groups as b on b.name = r.name and b.op_key = r.op_key and b.shapes_key = r.shapes_key
),

base_rest as (
    select b.name, b.op_key, b.shapes_key, b.op_type, b.input_shapes, b.count, b.total_ns
    from base_groups as b
    left join run_groups as r on r.name = b.name and r.op_key = b.op_key and r.shapes_key = b.shapes_key
    where r.name is null
),

run_rest as (
    select r.name, r.op_key, r.shapes_key, r.op_type, r.input_shapes, r.count, r.total_ns
    from run_groups as r
    left join base_groups as b on b.name = r.name and b.op_key = r.op_key and b.shapes_key = r.shapes_key
    where b.name is null
),

base_names as (
    select
        name, count(*) as variants, max(op_type) as op_type, max(input_shapes) as input_shapes,
        sum(count) as count, sum(total_ns) as total_ns
    from base_rest
    group by name
),

run_names as (
    select
        name, count(*) as variants, max(op_type) as op_type, max(input_shapes) as input_shapes,
        sum(count) as count, sum(total_ns) as total_ns
    from run_rest
    group by name
),

by_name as (
    select
        r.name,
        null as base_name,
        case when r.variants = 1 then r.op_type end as op_type,
        case when r.variants = 1 then r.input_shapes end as input_shapes,
        'name' as matched_by,
        b.count as base_count, b.total_ns as base_total_ns, r.count as run_count, r.total_ns as run_total_ns
    from run_names as r
    join base_names as b on b.name = r.name
),

base_left as (
    -- the baseline's kernels no name matched, by what they compute
    select
        b.op_key, b.shapes_key, max(b.op_type) as op_type, max(b.input_shapes) as input_shapes,
        min(b.name) as name,
        sum(b.count) as count, sum(b.total_ns) as total_ns
    from base_rest as b
    left join run_names as r on r.name = b.name
    where r.name is null
    -- a kernel without an op_type stays on its own: only a type says what it computes
    group by b.op_key, b.shapes_key, case when b.op_key = '' then b.name end
),

run_left as (
    select
        r.op_key, r.shapes_key, max(r.op_type) as op_type, max(r.input_shapes) as input_shapes,
        min(r.name) as name,
        sum(r.count) as count, sum(r.total_ns) as total_ns
    from run_rest as r
    left join base_names as b on b.name = r.name
    where b.name is null
    group by r.op_key, r.shapes_key, case when r.op_key = '' then r.name end
),

by_type as (
    select
        r.name,
        b.name as base_name,
        r.op_type, r.input_shapes,
        'op_type, input_shapes' as matched_by,
        b.count as base_count, b.total_ns as base_total_ns, r.count as run_count, r.total_ns as run_total_ns
    from run_left as r
    join base_left as b on b.op_key = r.op_key and b.shapes_key = r.shapes_key
    where r.op_key <> ''
),

run_unmatched as (
    -- what neither a name nor what it computes matched
    select r.name, r.op_type, r.input_shapes, r.count, r.total_ns
    from run_rest as r
    left join base_names as n on n.name = r.name
    left join base_left as b on b.op_key = r.op_key and b.shapes_key = r.shapes_key and r.op_key <> ''
    where n.name is null and b.op_key is null
),

base_unmatched as (
    select b.name, b.op_type, b.input_shapes, b.count, b.total_ns
    from base_rest as b
    left join run_names as n on n.name = b.name
    left join run_left as r on r.op_key = b.op_key and r.shapes_key = b.shapes_key and b.op_key <> ''
    where n.name is null and r.op_key is null
),

one_side as (
    select
        name, null as base_name, op_type, input_shapes, 'run only' as matched_by,
        0 as base_count, 0 as base_total_ns, count as run_count, total_ns as run_total_ns
    from run_unmatched
    union all
    select
        name, null as base_name, op_type, input_shapes, 'base only' as matched_by,
        count as base_count, total_ns as base_total_ns, 0 as run_count, 0 as run_total_ns
    from base_unmatched
),

matched as (
    select
        name, null as base_name, op_type, input_shapes, matched_by, base_count, base_total_ns, run_count,
        run_total_ns
    from exact
    union all
    select name, base_name, op_type, input_shapes, matched_by, base_count, base_total_ns, run_count, run_total_ns
    from by_name
    union all
    select name, base_name, op_type, input_shapes, matched_by, base_count, base_total_ns, run_count, run_total_ns
    from by_type
    union all
    select name, base_name, op_type, input_shapes, matched_by, base_count, base_total_ns, run_count, run_total_ns
    from one_side
),

final as (
    select
        p.run_id,
        p.base_run_id,
        m.name,
        m.base_name,
        m.op_type,
        m.input_shapes,
        m.matched_by,
        m.base_count,
        m.base_total_ns,
        1.0 * m.base_total_ns / nullif(m.base_count, 0) as base_mean_ns,
        m.run_count,
        m.run_total_ns,
        1.0 * m.run_total_ns / nullif(m.run_count, 0) as run_mean_ns,
        m.run_total_ns - m.base_total_ns as difference_ns,
        (1.0 * m.run_total_ns / nullif(m.run_count, 0)) / (1.0 * m.base_total_ns / nullif(m.base_count, 0)) as ratio
    from matched as m
    cross join pair as p
)

select
    run_id, base_run_id, name, base_name, op_type, input_shapes, matched_by, base_count, base_total_ns, base_mean_ns,
    run_count, run_total_ns, run_mean_ns, difference_ns, ratio
from final
order by difference_ns desc, name, matched_by, op_type, input_shapes
