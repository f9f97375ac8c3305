-- title: Rule dp_workload_imbalance
-- description: Per run, step and pipeline stage, ranks that run the same kernels on different
--     input shapes (a data-parallel split that gives ranks unequal work, e.g. variable sequence
--     lengths: a kernel name whose shape some of the ranks running it never run) and whose
--     compute (step_compute: the profiler's own Computing where it states one for every rank of
--     the step, else the summed compute kernel time of the answering kernels; a rank whose
--     kernels fall more than 5 % short of the profiler's Computing is never judged on them; the
--     message says which measure) spreads by more than spread ((max - min) / min); ranks of two
--     runs are never compared, nor ranks of two pipeline stages (rank_place.peer_key: the
--     stages run different layers, a pipeline imbalance is pipeline_stage_imbalance). Where the
--     run does not say its parallel groups (run_shape), every rank is compared with every other
--     and the message says so. The floor: msprof-analyze's slow-rank analyser names a compute
--     spread (max - min) / mean above 5 % (RATIO_THRESHOLD 0.05); here the spread must pass
--     10 % of the least rank's compute and come with kernels whose shapes differ. Confidence
--     medium: the shapes are direct evidence, but that they cause the spread is not
--     cross-checked; low without step rows (step -1: the ranks' whole captures are compared).
--     Ranks unknown to the input (-1) are left out.
--     Evidence: one execution of each shape of the kernel names whose shapes differ.
-- param run_id (integer, default null): Only this run; every run when null.
-- param spread (real, default 0.1): Relative compute spread over the ranks above which a step is flagged.
-- param evidence_limit (integer, default 6): Evidence rows per finding.
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
with placed as materialized (
    -- each rank with the set it is compared within (its stage, or every rank)
    select
        c.run_id, c.step_id, c.rank_id, c.compute_ns, c.measured_by, coalesce(p.peer_key, 'every rank') as peer_key
    from step_compute as c
    left join rank_place as p on p.run_id = c.run_id and p.rank_id = c.rank_id
    where :run_id is null or c.run_id = :run_id
),

compute_kernels as (
    select
        k.run_id, k.step_id, k.rank_id, k.kernel_id, k.source_id, k.source_row, k.slice_id, k.name, k.input_shapes,
        k.dur, p.peer_key
    from step_kernel as k
    join placed as p on p.run_id = k.run_id and p.step_id = k.step_id and p.rank_id = k.rank_id
    where k.is_compute = 1
),

spreads as (
    select
        run_id, step_id, peer_key, min(measured_by) as measured_by, count(*) as ranks, min(compute_ns) as min_ns,
        max(compute_ns) as max_ns,
        min(case when compute_ns = max_compute_ns then rank_id end) as max_rank_id,
        min(case when compute_ns = min_compute_ns then rank_id end) as min_rank_id
    from (
        select
            run_id, step_id, rank_id, peer_key, compute_ns, measured_by,
            max(compute_ns) over (partition by run_id, step_id, peer_key) as max_compute_ns,
            min(compute_ns) over (partition by run_id, step_id, peer_key) as min_compute_ns
        from placed
    ) as extremes
    group by run_id, step_id, peer_key
),

shape_ranks as (
    select run_id, step_id, peer_key, name, input_shapes, count(distinct rank_id) as ranks
    from compute_kernels
    where input_shapes is not null and input_shapes <> ''
    group by run_id, step_id, peer_key, name, input_shapes
),

name_ranks as (
    select run_id, step_id, peer_key, name, count(distinct rank_id) as ranks
    from compute_kernels
    group by run_id, step_id, peer_key, name
),

uneven_shapes as (
    -- shapes of a kernel name that some ranks of the set running the name never run
    select s.run_id, s.step_id, s.peer_key, s.name, s.input_shapes
    from shape_ranks as s
    join name_ranks as n
        on n.run_id = s.run_id and n.step_id = s.step_id and n.peer_key = s.peer_key and n.name = s.name
    where n.ranks > 1 and s.ranks < n.ranks
),

shaped as (
    select run_id, step_id, peer_key, name, count(*) as shapes
    from uneven_shapes
    group by run_id, step_id, peer_key, name
),

flagged as (
    select s.run_id, s.step_id, s.peer_key, s.measured_by, s.ranks, s.min_ns, s.max_ns, s.max_rank_id, s.min_rank_id,
        (select count(*) from shaped as h
         where h.run_id = s.run_id and h.step_id = s.step_id and h.peer_key = s.peer_key) as shaped_names,
        case when s.step_id = -1 then 'the whole capture' else 'step ' || s.step_id end as period,
        case
            when s.peer_key = 'every rank' then ''
            when s.peer_key = 'unplaced' then ' that the run''s parallel groups do not place'
            else ' of pipeline ' || s.peer_key
        end as scope,
        case
            when s.peer_key = 'every rank' then ' Compared with every rank: the run does not say its parallel groups.'
            when s.peer_key = 'unplaced' then ' Compared among the ranks its parallel groups do not place.'
            else ' Compared within pipeline ' || s.peer_key || ' only, never with another stage.'
        end as compared_with
    from spreads as s
    where s.ranks > 1 and s.min_ns > 0 and s.max_ns - s.min_ns > :spread * s.min_ns
        and exists (select 1 from shaped as h
                    where h.run_id = s.run_id and h.step_id = s.step_id and h.peer_key = s.peer_key)
),

shape_runs as (
    select
        k.run_id, k.step_id, k.peer_key, k.name, k.input_shapes, k.rank_id, k.kernel_id, k.source_id, k.source_row,
        k.slice_id, k.dur,
        row_number() over (
            partition by k.run_id, k.step_id, k.peer_key, k.name, k.input_shapes order by k.rank_id, k.kernel_id
        ) as run_order
    from compute_kernels as k
    join uneven_shapes as h
        on h.run_id = k.run_id and h.step_id = k.step_id and h.peer_key = k.peer_key and h.name = k.name
        and h.input_shapes = k.input_shapes
),

evidence as (
    select
        run_id, step_id, peer_key, name, input_shapes, rank_id, kernel_id, source_id, source_row, slice_id, dur,
        row_number() over (partition by run_id, step_id, peer_key order by name, input_shapes) as position
    from shape_runs
    where run_order = 1
),

final as (
    select
        'run ' || f.run_id || ' step ' || f.step_id || ' ' || f.peer_key as finding_key,
        f.run_id,
        f.max_rank_id as rank_id,
        f.step_id,
        f.period as subject,
        'medium' as severity,
        case when f.step_id = -1 then 'low' else 'medium' end as confidence,
        upper(substr(f.period, 1, 1)) || substr(f.period, 2) || ': compute ranges '
        || format_ns(f.min_ns) || ' to '
        || format_ns(f.max_ns) || case when f.measured_by = 'profiler' then ' (the profiler''s Computing)' else '' end
        || ' over ' || f.ranks || ' ranks' || f.scope || ' (rank '
        || f.max_rank_id || ' most, rank ' || f.min_rank_id || ' least) and ' || f.shaped_names
        || ' kernel names run on different shapes across ranks: the data-parallel split is uneven; '
        || 'balance the batches (pack or bucket sequences by length).' || f.compared_with as message,
        json_object(
            'ranks', f.ranks, 'min_ns', f.min_ns, 'max_ns', f.max_ns, 'measured_by', f.measured_by,
            'spread', round(1.0 * (f.max_ns - f.min_ns) / f.min_ns, 4),
            'max_rank_id', f.max_rank_id, 'min_rank_id', f.min_rank_id, 'shaped_names', f.shaped_names,
            'compared_with', f.peer_key
        ) as numbers,
        'kernel' as evidence_table,
        e.source_id as evidence_source_id,
        e.source_row as evidence_source_row,
        e.slice_id as evidence_slice_id,
        e.kernel_id as evidence_kernel_id,
        e.name || ' on rank ' || e.rank_id || ' with shapes ' || e.input_shapes || ': '
        || format_ns(e.dur) as evidence_note,
        e.position
    from flagged as f
    join evidence as e on e.run_id = f.run_id and e.step_id = f.step_id and e.peer_key = f.peer_key
    where e.position <= :evidence_limit
)

-- include: _rule_output
order by run_id, step_id, finding_key, position
