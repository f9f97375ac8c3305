-- title: Rule gc_pauses
-- description: Per run, rank and step, Python garbage collection (gc_event, torch_npu's
--     GC_RECORD) that stops the training loop for at least min_share of the step: the host
--     launches nothing meanwhile. Severity medium from high_share, low under it; confidence
--     high (the pauses are recorded, not inferred). Evidence: the longest pauses.
-- param run_id (integer, default null): Only this run; every run when null.
-- param min_share (real, default 0.01): Share of the step the pauses must reach.
-- param high_share (real, default 0.05): Share from which the finding is severity medium.
-- param evidence_limit (integer, default 3): Evidence rows per finding.
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
with pauses as (
    select w.run_id, w.rank_id, w.step_id, w.end_ns - w.start_ns as step_ns, g.source_id, g.source_row, g.ts, g.dur,
        row_number() over (partition by w.run_id, w.rank_id, w.step_id order by g.dur desc, g.source_row) as position
    from gc_event as g
    join source as s on s.id = g.source_id
    join step_window as w on w.run_id = s.run_id and w.rank_id = g.rank_id and g.ts >= w.start_ns and g.ts < w.end_ns
    where g.dur > 0 and (:run_id is null or s.run_id = :run_id)
),

per_step as (
    select run_id, rank_id, step_id, step_ns, count(*) as pauses, sum(dur) as gc_ns, 1.0 * sum(dur) / step_ns as share,
        case when step_id = -1 then 'the whole capture' else 'step ' || step_id end as period
    from pauses
    where step_ns > 0
    group by run_id, rank_id, step_id, step_ns
    having sum(dur) >= :min_share * step_ns
),

final as (
    select
        'run ' || s.run_id || ' rank ' || s.rank_id || ' step ' || s.step_id as finding_key,
        s.run_id,
        s.rank_id,
        s.step_id,
        'rank ' || s.rank_id as subject,
        case when s.share >= :high_share then 'medium' else 'low' end as severity,
        'high' as confidence,
        'Rank ' || s.rank_id || ', ' || s.period || ': Python garbage collection paused the host '
        || s.pauses || ' times for ' || format_ns(s.gc_ns) || ' ('
        || cast(round(100 * s.share, 1) as text) || '% of ' || case when s.step_id = -1 then 'it' else 'the step' end
        || '); call gc.freeze() after loading the model, '
        || 'or gc.disable() in the loop with gc.collect() between steps.' as message,
        json_object('pauses', s.pauses, 'gc_ns', s.gc_ns, 'step_ns', s.step_ns, 'share', round(s.share, 4)) as numbers,
        'gc_event' as evidence_table,
        p.source_id as evidence_source_id,
        p.source_row as evidence_source_row,
        null as evidence_slice_id,
        null as evidence_kernel_id,
        'pause of ' || format_ns(p.dur) as evidence_note,
        p.position
    from per_step as s
    join pauses as p on p.run_id = s.run_id and p.rank_id = s.rank_id and p.step_id = s.step_id
    where p.position <= :evidence_limit
)

-- include: _rule_output
order by run_id, rank_id, step_id, position
