-- title: Rule reduced_work_or_dummy_rank
-- description: Per run and step, each rank's number of compute kernels (op_class.is_compute;
--     the answering kernels) against the median over the step's ranks: a rank running fewer
--     than ratio times the median does reduced work or is a dummy (padding) rank. Confidence
--     high when kernel names the other ranks ran are missing on it (the evidence: one execution
--     of each missing name on another rank), medium when it runs the same names, only fewer
--     times (the evidence: its first execution of each name it ran fewer times, with the most
--     times another rank ran it), low without step rows (step -1: whole captures compared).
--     Ranks unknown to the input (-1) are left out, and so is a rank whose kernels are not its
--     whole compute (step_compute.kernels_whole: they fall more than 5 % short of the
--     profiler's own Computing for the step, so the input holds only part of them), from the
--     median too.
-- param run_id (integer, default null): Only this run; every run when null.
-- param ratio (real, default 0.5): Share of the median kernel count under which a rank is flagged.
-- param evidence_limit (integer, default 5): Evidence rows per finding.
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
with compute_kernels as (
    select run_id, step_id, rank_id, kernel_id, source_id, source_row, slice_id, name
    from step_kernel
    where is_compute = 1 and (:run_id is null or run_id = :run_id)
),

flagged as (
    select run_id, step_id, rank_id, kernels, median_kernels,
        case when step_id = -1 then 'the whole capture' else 'step ' || step_id end as period
    from step_compute
    where ranks > 1 and kernels_whole = 1 and kernels < :ratio * median_kernels
        and (:run_id is null or run_id = :run_id)
),

first_runs as (
    select run_id, step_id, name, rank_id, kernel_id, source_id, source_row, slice_id,
        row_number() over (partition by run_id, step_id, name order by rank_id, kernel_id) as run_order
    from compute_kernels
),

missing as (
    -- kernel names the others ran that the rank never ran, with one execution of each on another rank
    select
        f.run_id, f.step_id, f.rank_id, r.kernel_id, r.source_id, r.source_row, r.slice_id,
        r.name || ' ran on rank ' || r.rank_id || ' but never on rank ' || f.rank_id || ' in ' || f.period as note
    from flagged as f
    join first_runs as r on r.run_id = f.run_id and r.step_id = f.step_id and r.run_order = 1
    where not exists (
        select 1 from compute_kernels as k
        where k.run_id = f.run_id and k.step_id = f.step_id and k.rank_id = f.rank_id and k.name = r.name
    )
),

name_runs as (
    select run_id, step_id, rank_id, name, count(*) as runs, min(kernel_id) as kernel_id
    from compute_kernels
    group by run_id, step_id, rank_id, name
),

fewer as (
    -- where the rank misses no name: each name it ran fewer times than another rank, against the most
    select
        f.run_id, f.step_id, f.rank_id, f.period, c.name, c.runs, c.kernel_id, o.rank_id as other_rank_id,
        o.runs as other_runs,
        row_number() over (
            partition by f.run_id, f.step_id, f.rank_id, c.name order by o.runs desc, o.rank_id
        ) as most_order
    from flagged as f
    join name_runs as c on c.run_id = f.run_id and c.step_id = f.step_id and c.rank_id = f.rank_id
    join name_runs as o on o.run_id = f.run_id and o.step_id = f.step_id and o.name = c.name and o.runs > c.runs
    where not exists (
        select 1 from missing as m where m.run_id = f.run_id and m.step_id = f.step_id and m.rank_id = f.rank_id
    )
),

evidence as (
    select
        run_id, step_id, rank_id, kernel_id, source_id, source_row, slice_id, note, missing_names,
        row_number() over (partition by run_id, step_id, rank_id order by kernel_id) as position
    from (
        select
            run_id, step_id, rank_id, kernel_id, source_id, source_row, slice_id, note,
            count(*) over (partition by run_id, step_id, rank_id) as missing_names
        from missing
        union all
        select
            w.run_id, w.step_id, w.rank_id, k.kernel_id, k.source_id, k.source_row, k.slice_id,
            w.name || ' ran ' || w.runs || ' times on rank ' || w.rank_id || ' and ' || w.other_runs
            || ' times on rank ' || w.other_rank_id || ' in ' || w.period,
            0
        from fewer as w
        join compute_kernels as k on k.kernel_id = w.kernel_id
        where w.most_order = 1
    ) as rows_
),

final as (
    select
        'run ' || f.run_id || ' rank ' || f.rank_id || ' step ' || f.step_id as finding_key,
        f.run_id,
        f.rank_id,
        f.step_id,
        'rank ' || f.rank_id as subject,
        'medium' as severity,
        case when f.step_id = -1 then 'low' when e.missing_names > 0 then 'high' else 'medium' end as confidence,
        'Rank ' || f.rank_id || ' ran ' || f.kernels || ' compute kernels in ' || f.period
        || ' against a median of ' || cast(f.median_kernels as text) || ' over the ranks'
        || case when e.missing_names > 0 then ' and never ran ' || e.missing_names || ' kernel names the others ran'
            else '' end
        || ': reduced work or a dummy rank; check the data split and the parallel layout.' as message,
        json_object(
            'kernels', f.kernels, 'median_kernels', f.median_kernels,
            'missing_names', coalesce(e.missing_names, 0)
        ) as numbers,
        'kernel' as evidence_table,
        e.source_id as evidence_source_id,
        e.source_row as evidence_source_row,
        e.slice_id as evidence_slice_id,
        e.kernel_id as evidence_kernel_id,
        e.note as evidence_note,
        e.position
    from flagged as f
    join evidence as e on e.run_id = f.run_id and e.step_id = f.step_id and e.rank_id = f.rank_id
    where e.position <= :evidence_limit
)

-- include: _rule_output
order by run_id, rank_id, step_id, position
