-- title: Rule pipeline_stage_imbalance
-- description: Per run and step of a pipeline-parallel run whose shape is known (run_shape,
--     rank_place: two stages or more), each stage's compute (the median over its ranks of their
--     compute in the step, step_compute: the profiler's own Computing where it states one for
--     every rank of the step, else their compute kernel time; a rank whose kernels fall more
--     than 5 % short of the profiler's Computing is never judged on them; the message says
--     which measure) against the fastest stage's: the pipeline runs at the pace of its slowest
--     stage, and the ranks of the other stages wait for it in the pipeline's send/receive
--     (bubbles). A slowest stage above threshold times the fastest is flagged: move layers from
--     it to the fastest stage (or balance the embedding and the loss layers of the first and
--     last stages). Never where the run does not say its parallel groups: the stages are then
--     unknown, and the ranks are compared with each other by slow_rank_suspected. The floor:
--     msprof-analyze's slow-rank analyser names a spread (max - min) / mean of the ranks'
--     compute above 5 % (RATIO_THRESHOLD 0.05) and compares the ranks of each pipeline stage
--     apart, without naming the stages' own spread; here the slowest stage must compute 15 %
--     more than the fastest, three times that floor. Severity
--     high from high_ratio up, medium below; confidence high with step rows (the stages'
--     medians are direct), low without them (step -1: whole captures compared).
--     Evidence: the slowest stage's first rank's compute kernels that ran longest.
-- param run_id (integer, default null): Only this run; every run when null.
-- param threshold (real, default 1.15): Ratio of the slowest stage's compute to the fastest's above which it is flagged.
-- param high_ratio (real, default 1.5): Ratio from which the finding is severity high.
-- param evidence_limit (integer, default 5): Evidence kernels per finding.
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
    select c.run_id, c.step_id, c.rank_id, c.compute_ns, c.measured_by, p.stage_id
    from step_compute as c
    join rank_place as p on p.run_id = c.run_id and p.rank_id = c.rank_id
    where p.shape_known = 1 and p.stage_id is not null and (:run_id is null or c.run_id = :run_id)
),

step_measures as (
    select run_id, step_id, rank_id, stage_id as measure, compute_ns as value
    from placed
),

-- include: _step_medians
,

stages as (
    select
        m.run_id, m.step_id, m.measure as stage_id, m.ranks, m.median as compute_ns,
        row_number() over (partition by m.run_id, m.step_id order by m.median desc, m.measure) as slowest_order,
        row_number() over (partition by m.run_id, m.step_id order by m.median, m.measure) as fastest_order,
        count(*) over (partition by m.run_id, m.step_id) as stages
    from step_medians as m
),

flagged as (
    select
        s.run_id, s.step_id, s.stage_id, s.ranks, s.stages, s.compute_ns, f.stage_id as fastest_stage_id,
        f.compute_ns as fastest_ns, 1.0 * s.compute_ns / f.compute_ns as ratio,
        (select min(p.measured_by) from placed as p where p.run_id = s.run_id and p.step_id = s.step_id) as measured_by,
        (select min(p.rank_id) from placed as p
         where p.run_id = s.run_id and p.step_id = s.step_id and p.stage_id = s.stage_id) as rank_id,
        case when s.step_id = -1 then 'the whole capture' else 'step ' || s.step_id end as period
    from stages as s
    join stages as f on f.run_id = s.run_id and f.step_id = s.step_id and f.fastest_order = 1
    where s.slowest_order = 1 and s.stages > 1 and f.compute_ns > 0 and s.compute_ns > :threshold * f.compute_ns
),

evidence as (
    select
        f.run_id, f.step_id, k.kernel_id, k.source_id, k.source_row, k.slice_id, k.name, k.dur,
        row_number() over (partition by f.run_id, f.step_id order by k.dur desc, k.kernel_id) as position
    from flagged as f
    join step_kernel as k on k.run_id = f.run_id and k.step_id = f.step_id and k.rank_id = f.rank_id
    where k.is_compute = 1
),

final as (
    select
        'run ' || f.run_id || ' step ' || f.step_id as finding_key,
        f.run_id,
        f.rank_id,
        f.step_id,
        'pipeline stage ' || f.stage_id as subject,
        case when f.ratio >= :high_ratio then 'high' else 'medium' end as severity,
        case when f.step_id = -1 then 'low' else 'high' end as confidence,
        'Pipeline stage ' || f.stage_id || ' computes ' || cast(round(f.ratio, 2) as text)
        || 'x pipeline stage ' || f.fastest_stage_id || ' in ' || f.period || ' (' || format_ns(f.compute_ns)
        || ' against ' || format_ns(f.fastest_ns) || ', the median of each stage''s ranks by '
        || case when f.measured_by = 'profiler' then 'the profiler''s Computing' else 'compute kernel time' end
        || ', ' || f.stages
        || ' stages): the pipeline runs at the pace of its slowest stage and the others wait for it; '
        || 'move layers from stage ' || f.stage_id || ' to stage ' || f.fastest_stage_id || '.' as message,
        json_object(
            'stage_id', f.stage_id, 'compute_ns', f.compute_ns, 'fastest_stage_id', f.fastest_stage_id,
            'fastest_ns', f.fastest_ns, 'measured_by', f.measured_by, 'ratio', round(f.ratio, 4), 'stages', f.stages,
            'stage_ranks', f.ranks
        ) as numbers,
        'kernel' as evidence_table,
        e.source_id as evidence_source_id,
        e.source_row as evidence_source_row,
        e.slice_id as evidence_slice_id,
        e.kernel_id as evidence_kernel_id,
        e.name || ' ran ' || format_ns(e.dur) || ' on rank ' || f.rank_id || ' (pipeline stage ' || f.stage_id
        || ')' as evidence_note,
        e.position
    from flagged as f
    join evidence as e on e.run_id = f.run_id and e.step_id = f.step_id
    where e.position <= :evidence_limit
)

-- include: _rule_output
order by run_id, step_id, position
