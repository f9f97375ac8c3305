-- title: Rule host_tiling_not_sunk
-- description: Per run and rank, the operators the host tiles again every step although their
--     shapes never change (seed 002): a static-shape graph whose tiling could run on the
--     device's AICPU (tiling sink) instead of costing host time and a host-device round trip
--     before each launch. A host tiling call is a CANN API row named <OpType>_Tiling (as the
--     runtime writes it, inside the aclnn call); its kernel is the one the next node-level
--     launch on the same thread started (the host_to_device flow of the launch's connection
--     id); a call whose launch leads to no kernel is not counted. An operator type is static
--     when it is tiled in at least min_steps steps, as many times in each, and every step runs
--     all of its kernels' input shapes; changing shapes (dynamic shapes, where tiling sink
--     does not apply) leave it out, and a rank with no static operator type gives no finding,
--     as does a rank whose tiling is sunk (no host tiling calls: tiling_sink_kernels lists
--     those kernels). Reported when the static operators' host tiling per step reaches min_ns;
--     severity high from high_share of the step, medium from medium_share, low under it.
--     Confidence high on an Atlas A2/A3 chip (run_metadata npu.N: Ascend910B*, Ascend910_93*)
--     with no MODEL_TASK_UPDATE task on the rank (tiling sink off): the advice is to enable it
--     (ge.tiling_schedule_optimize=1, atc --tiling_schedule_optimize=1); medium when the chip
--     is unknown, or when the rank already sinks some tiling (then these operators lack AICPU
--     tiling or sit outside the static graph); low on another chip (tiling sink needs A2/A3).
--     Evidence: per operator type (most host time first), its first host tiling call and the
--     kernel it tiled.
-- param run_id (integer, default null): Only this run; every run when null.
-- param min_steps (integer, default 2): Steps an operator type must be tiled in, identically, to count as static.
-- param min_ns (integer, default 10000): Host tiling per step (ns) from which a rank is reported.
-- param high_share (real, default 0.05): Share of the step from which the finding is severity high.
-- param medium_share (real, default 0.01): Share of the step from which the finding is severity medium.
-- param evidence_limit (integer, default 6): Evidence rows per finding (two per operator type).
-- column finding_key: Identifies the finding the row belongs to.
-- column run_id: Run the finding is about.
-- column rank_id: Rank the finding is about.
-- column step_id: Step the finding is about.
-- column subject: What the finding is about.
-- column severity: high, medium or low.
-- column confidence: high, medium or low (seed 004).
-- column message: One line for a person.
-- column numbers: The numbers behind the message (JSON object).
-- column evidence_table: Table of the evidence row.
-- column evidence_source_id: Input of the evidence row.
-- column evidence_source_row: Row of the evidence in its input.
-- column evidence_slice_id: Timeline slice of the evidence row, when it has one.
-- column evidence_kernel_id: kernel.id of the evidence row, when it is a kernel.
-- column evidence_note: What the evidence row shows.
with host_calls as (
    -- the host tiling calls and the launches, each with the next launch of its thread
    select src.run_id, c.rank_id, c.source_id, c.source_row, c.slice_id, c.global_tid, c.name, c.ts, c.dur,
        min(case when c.name = 'launch' then c.ts end) over (
            partition by c.source_id, c.global_tid order by c.ts, c.slice_id
            rows between 1 following and unbounded following
        ) as launch_ts
    from cann_api as c
    join source as src on src.id = c.source_id
    where (c.name like '%_Tiling' or c.name = 'launch') and (:run_id is null or src.run_id = :run_id)
),

tiled as (
    select t.run_id, t.rank_id, t.source_id, t.source_row, t.slice_id, t.name, t.ts, t.dur, min(k.id) as kernel_id
    from host_calls as t
    join cann_api as l on l.source_id = t.source_id and l.global_tid = t.global_tid and l.ts = t.launch_ts
        and l.name = 'launch'
    join flow as f on f.slice_out = l.slice_id and f.name = 'host_to_device'
    join kernel as k on k.slice_id = f.slice_in
    where t.name <> 'launch'
    group by t.run_id, t.rank_id, t.source_id, t.source_row, t.slice_id, t.name, t.ts, t.dur
),

calls as (
    select t.run_id, t.rank_id, w.step_id, w.end_ns - w.start_ns as step_ns, t.source_id, t.source_row, t.slice_id,
        t.name, t.dur, t.kernel_id, k.source_id as kernel_source_id, k.source_row as kernel_source_row,
        k.slice_id as kernel_slice_id, coalesce(k.op_type, k.name) as op_type,
        coalesce(k.input_shapes, '') as shapes,
        row_number() over (partition by t.run_id, t.rank_id, coalesce(k.op_type, k.name) order by t.ts, t.slice_id)
        as op_call
    from tiled as t
    join kernel as k on k.id = t.kernel_id
    join step_window as w on w.run_id = t.run_id and w.rank_id = t.rank_id and t.ts >= w.start_ns and t.ts < w.end_ns
),

op_steps as (
    select run_id, rank_id, op_type, step_id, step_ns, count(*) as calls, sum(dur) as tiling_ns,
        count(distinct shapes) as shapes
    from calls
    group by run_id, rank_id, op_type, step_id, step_ns
),

op_shapes as (
    select run_id, rank_id, op_type, count(distinct shapes) as shapes
    from calls
    group by run_id, rank_id, op_type
),

ops as (
    select s.run_id, s.rank_id, s.op_type, count(*) as steps, sum(s.tiling_ns) as tiling_ns,
        case when count(*) >= :min_steps and min(s.calls) = max(s.calls) and min(s.shapes) = max(a.shapes) then 1
            else 0 end as static
    from op_steps as s
    join op_shapes as a on a.run_id = s.run_id and a.rank_id = s.rank_id and a.op_type = s.op_type
    group by s.run_id, s.rank_id, s.op_type
),

rank_steps as (
    select s.run_id, s.rank_id, s.step_id, s.step_ns, sum(s.calls) as calls, sum(s.tiling_ns) as tiling_ns
    from op_steps as s
    join ops as o on o.run_id = s.run_id and o.rank_id = s.rank_id and o.op_type = s.op_type
    where o.static = 1
    group by s.run_id, s.rank_id, s.step_id, s.step_ns
),

ranks as (
    select r.run_id, r.rank_id, count(*) as steps, sum(r.tiling_ns) as tiling_ns, max(r.calls) as calls_per_step,
        cast(sum(r.tiling_ns) / count(*) as integer) as per_step_ns, max(r.tiling_ns) as max_step_ns,
        1.0 * sum(r.tiling_ns) / sum(r.step_ns) as share,
        (select count(*) from ops as o where o.run_id = r.run_id and o.rank_id = r.rank_id and o.static = 1)
        as op_types,
        (select count(*) from ops as o where o.run_id = r.run_id and o.rank_id = r.rank_id and o.static = 0)
        as dynamic_op_types
    from rank_steps as r
    group by r.run_id, r.rank_id
    having sum(r.tiling_ns) >= :min_ns * count(*)
),

sunk as (
    select src.run_id, p.rank_id, count(*) as updates
    from slice as s
    join thread as t on t.id = s.thread_id
    join process as p on p.id = t.process_id
    join source as src on src.id = s.source_id
    where s.category = 'MODEL_TASK_UPDATE' and p.name = 'Ascend Hardware'
    group by src.run_id, p.rank_id
),

chips as (
    select src.run_id, m.rank_id, min(m.value) as chip
    from run_metadata as m
    join source as src on src.id = m.source_id
    where m.name like 'npu.%'
    group by src.run_id, m.rank_id
),

flagged as (
    select r.run_id, r.rank_id, r.steps, r.tiling_ns, r.calls_per_step, r.per_step_ns, r.max_step_ns, r.share,
        r.op_types, r.dynamic_op_types, coalesce(s.updates, 0) as sunk_updates, c.chip,
        case
            when c.chip is null then 'unknown'
            when c.chip like 'Ascend910B%' or c.chip like 'Ascend910_93%' then 'a2_a3'
            else 'other'
        end as chip_class
    from ranks as r
    left join sunk as s on s.run_id = r.run_id and s.rank_id = r.rank_id
    left join chips as c on c.run_id = r.run_id and c.rank_id = r.rank_id
),

picked as (
    select c.run_id, c.rank_id, c.op_type, c.source_id, c.source_row, c.slice_id, c.name, c.dur, c.kernel_id,
        c.kernel_source_id, c.kernel_source_row, c.kernel_slice_id, c.shapes, o.steps,
        row_number() over (partition by c.run_id, c.rank_id order by o.tiling_ns desc, c.op_type) as op_order
    from calls as c
    join ops as o on o.run_id = c.run_id and o.rank_id = c.rank_id and o.op_type = c.op_type
    where o.static = 1 and c.op_call = 1
),

evidence as (
    select run_id, rank_id, 2 * op_order - 1 as position, 'cann_api' as table_name, source_id, source_row, slice_id,
        null as kernel_id,
        'host tiling ' || name || ' took ' || format_ns(dur) || ', again in each of ' || steps || ' steps' as note
    from picked
    union all
    select run_id, rank_id, 2 * op_order as position, 'kernel' as table_name, kernel_source_id, kernel_source_row,
        kernel_slice_id, kernel_id,
        'the ' || op_type || ' kernel it tiled, input shapes ' || shapes || ' in every step' as note
    from picked
),

final as (
    select
        'run ' || f.run_id || ' rank ' || f.rank_id as finding_key,
        f.run_id,
        f.rank_id,
        null as step_id,
        'rank ' || f.rank_id as subject,
        case when f.share >= :high_share then 'high' when f.share >= :medium_share then 'medium' else 'low' end
        as severity,
        case
            when f.chip_class = 'other' then 'low'
            when f.chip_class = 'a2_a3' and f.sunk_updates = 0 then 'high'
            else 'medium'
        end as confidence,
        'Rank ' || f.rank_id || ': the host tiles ' || f.op_types
        || case when f.op_types = 1 then ' operator type' else ' operator types' end || ' again every step ('
        || format_ns(f.per_step_ns) || ' per step, ' || cast(round(100 * f.share, 1) as text) || '% of the step, over '
        || f.steps || ' steps) with the same shapes each time: '
        || case
            when f.chip_class = 'other' then 'tiling sink would move it to the device but needs Atlas A2/A3 ('
                || f.chip || ').'
            when f.sunk_updates > 0 then 'tiling sink is already on for ' || f.sunk_updates
                || ' kernels of this rank; these operators lack AICPU tiling (TILING_ON_AICPU) or sit outside'
                || ' the static-shape graph.'
            else 'enable tiling sink (ge.tiling_schedule_optimize=1, atc --tiling_schedule_optimize=1; static-shape'
                || ' graphs on Atlas A2/A3) so their tiling runs on the device''s AICPU.'
        end as message,
        json_object(
            'steps', f.steps, 'host_tiling_ns', f.tiling_ns, 'host_tiling_ns_per_step', f.per_step_ns,
            'max_step_ns', f.max_step_ns, 'calls_per_step', f.calls_per_step, 'share', round(f.share, 4),
            'op_types', f.op_types, 'dynamic_op_types', f.dynamic_op_types, 'sunk_updates', f.sunk_updates,
            'chip', f.chip
        ) as numbers,
        e.table_name as evidence_table,
        e.source_id as evidence_source_id,
        e.source_row as evidence_source_row,
        e.slice_id as evidence_slice_id,
        e.kernel_id as evidence_kernel_id,
        e.note as evidence_note,
        e.position
    from flagged as f
    join evidence as e on e.run_id = f.run_id and e.rank_id = f.rank_id
    where e.position <= :evidence_limit
)

-- include: _rule_output
order by run_id, rank_id, position
