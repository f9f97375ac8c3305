-- title: Rule kernel_hotspot
-- description: Per run, the compute kernel names (not communication) that take the most
--     device time over the run's ranks (its answering kernels, kernel_answer; at least
--     min_share of their time, at most limit of them), with their bound stage and family (the pipeline stage where they spend most time, seed 004) and what that family
--     suggests. Informational (severity low); confidence high when the kernels carry
--     pipeline times, low without them. Evidence: the longest execution of each.
-- param run_id (integer, default null): Only this run; every run when null.
-- param limit (integer, default 5): How many kernel names at most.
-- param min_share (real, default 0.05): Share of all kernel time a name must reach.
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
with computing as (
    -- compute kernels: HCCL operators have no bound stage and their names carry instance numbers
    select run_id, id, source_id, source_row, slice_id, rank_id, name, dur, bound_family, bound_stage
    from kernel_answer
    where dur > 0 and (:run_id is null or run_id = :run_id)
),

totals as (
    select run_id, sum(dur) as all_ns
    from computing
    group by run_id
),

names as (
    select run_id, name, count(*) as runs, sum(dur) as total_ns, count(distinct rank_id) as ranks
    from computing
    group by run_id, name
),

families as (
    select run_id, name, bound_family, bound_stage, sum(dur) as family_ns,
        row_number() over (partition by run_id, name order by sum(dur) desc, bound_family, bound_stage) as family_order
    from computing
    where bound_family is not null
    group by run_id, name, bound_family, bound_stage
),

top_names as (
    select n.run_id, n.name, n.runs, n.total_ns, n.ranks, 1.0 * n.total_ns / t.all_ns as share, f.bound_family,
        f.bound_stage,
        row_number() over (partition by n.run_id order by n.total_ns desc, n.name) as rank_order
    from names as n
    join totals as t on t.run_id = n.run_id
    left join families as f on f.run_id = n.run_id and f.name = n.name and f.family_order = 1
    where n.total_ns >= :min_share * t.all_ns
),

longest as (
    select k.run_id, k.name, k.id as kernel_id, k.source_id, k.source_row, k.slice_id, k.rank_id, k.dur,
        row_number() over (partition by k.run_id, k.name order by k.dur desc, k.id, k.slice_id) as run_order
    from computing as k
    join top_names as t on t.run_id = k.run_id and t.name = k.name and t.rank_order <= :limit
),

final as (
    select
        'run ' || t.run_id || ' ' || t.name as finding_key,
        t.run_id,
        null as rank_id,
        null as step_id,
        t.name as subject,
        'low' as severity,
        case when t.bound_family is null then 'low' else 'high' end as confidence,
        t.name || ' takes ' || cast(round(100 * t.share, 1) as text) || '% of kernel time (' || t.runs || ' runs on '
        || t.ranks || ' ranks)' || coalesce(', bound by ' || t.bound_stage || ' (' || t.bound_family || ')', '') || ': '
        || case t.bound_family
            when 'cube' then 'cube-bound: the matrix unit is busy; gains come from fewer FLOPs (fusion, quantised matmul) or better shapes (multiples of 16).'
            when 'vector' then 'vector-bound: fuse element-wise neighbours into it and check for avoidable casts.'
            when 'aic_mte' then 'cube-side memory-bound (GM -> L1/L0): improve data reuse in L1, larger tiles, check L2 hit.'
            when 'aiv_mte' then 'vector-side memory-bound (GM <-> UB): fuse to keep data in UB, align to 32 bytes, check L2 hit.'
            when 'scalar' then 'scalar-bound: too much address or loop arithmetic per tile; larger tiles, more block_dim, or a better tiling key.'
            else 'no pipeline times (profile with aic_metrics=PipeUtilization to see its bound stage).'
        end as message,
        json_object(
            'total_ns', t.total_ns, 'runs', t.runs, 'ranks', t.ranks, 'share', round(t.share, 4),
            'bound_family', t.bound_family, 'bound_stage', t.bound_stage
        ) as numbers,
        case when l.kernel_id is null then 'slice' else 'kernel' end as evidence_table,
        l.source_id as evidence_source_id,
        l.source_row as evidence_source_row,
        l.slice_id as evidence_slice_id,
        l.kernel_id as evidence_kernel_id,
        'longest run: ' || format_ns(l.dur) || ' on rank ' || l.rank_id as evidence_note,
        t.rank_order as position
    from top_names as t
    join longest as l on l.run_id = t.run_id and l.name = t.name and l.run_order = 1
    where t.rank_order <= :limit
)

-- include: _rule_output
order by run_id, position
