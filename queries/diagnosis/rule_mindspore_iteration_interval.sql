-- title: Rule mindspore_iteration_interval
-- description: Per run and MindSpore device, a long iteration interval, as MindInsight's step trace
--     proposer judges it (mindinsight/profiler/proposer/allproposers/step_trace_proposer.py; its
--     threshold is the default): the mean iteration interval over the steps after the first exceeds
--     threshold_ms: MindSpore's average record where the answering input has one, over every step even
--     where the file keeps fewer, else computed from the steps (view mindspore_step_mean, as
--     mindspore_step_phase_summary; numbers.mean_source says which).
--     The iteration interval is the time from the previous step's end to the forward pass: outside the
--     graph, spent on data
--     processing and the host's work between steps (MindInsight: optimise the path from data
--     processing to the graph's execution). Severity high when it is at least high_share of the mean
--     step, medium from medium_share, low under it. Confidence high (the step points are recorded).
--     Evidence: the steps with the longest iteration intervals (mindspore_step_trace).
-- param run_id (integer, default null): Only this run; every run when null.
-- param threshold_ms (real, default 0.5): Mean iteration interval in ms above which the finding is made (MindInsight's __step_trace_iter_interval_threshold).
-- param high_share (real, default 0.3): Share of the mean step from which the finding is severity high.
-- param medium_share (real, default 0.1): Share of the mean step from which the finding is severity medium.
-- param evidence_limit (integer, default 5): Steps shown per finding.
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
with means as (
    select run_id, rank_id, mean_source, total_steps, averaged_steps, total_ns as step_ns,
        iteration_interval_ns as interval_ns
    from mindspore_step_mean
    where :run_id is null or run_id = :run_id
),

findings as (
    select run_id, rank_id, mean_source, total_steps, averaged_steps, step_ns, interval_ns,
        1.0 * interval_ns / nullif(step_ns, 0) as share
    from means
    where interval_ns > :threshold_ms * 1000000
),

evidence as (
    select run_id, rank_id, source_id, source_row,
        'step ' || step_id || ': iteration interval ' || format_ns(iteration_interval_ns) || ' of '
        || format_ns(total_ns) as note,
        row_number() over (partition by run_id, rank_id order by iteration_interval_ns desc, step_id) as position
    from mindspore_step_phase
    where averaged = 1 and (:run_id is null or run_id = :run_id)
),

final as (
    select
        'run ' || f.run_id || ' rank ' || f.rank_id || ' iteration_interval' as finding_key,
        f.run_id,
        f.rank_id,
        null as step_id,
        'iteration_interval' as subject,
        case when f.share >= :high_share then 'high' when f.share >= :medium_share then 'medium' else 'low' end
            as severity,
        'high' as confidence,
        'The mean iteration interval is ' || format_ns(f.interval_ns) || ' (over ' || :threshold_ms || ' ms), '
        || cast(round(100 * f.share, 1) as text) || '% of the mean step of ' || format_ns(f.step_ns)
        || ': time between steps outside the graph, on data processing and the host''s work; optimise the path '
        || 'from data processing to the graph''s execution. The means are '
        || case when f.mean_source = 'average_record' then 'the file''s average record.'
            else 'of the steps after the first.' end as message,
        json_object('mean_source', f.mean_source, 'steps', f.total_steps, 'averaged_steps', f.averaged_steps,
            'iteration_interval_ns', round(f.interval_ns), 'step_ns', round(f.step_ns), 'share', round(f.share, 4))
            as numbers,
        'mindspore_step_trace' as evidence_table, e.source_id as evidence_source_id,
        e.source_row as evidence_source_row, null as evidence_slice_id, null as evidence_kernel_id,
        e.note as evidence_note, e.position
    from findings as f
    left join evidence as e on e.run_id = f.run_id and e.rank_id = f.rank_id and e.position <= :evidence_limit
)

-- include: _rule_output
order by run_id, finding_key, position
