-- title: Rule run_regression
-- description: Over the history of runs (issue 17; runs in start order, a run whose start is
--     unknown first, by id), a run whose mean step duration (the mean over its ranks of each rank's
--     mean step, step_answer, as trend_step_time counts it) exceeds its baseline's by more than
--     threshold times. The baseline is the last run before it that is comparable with it
--     (run_comparable: the same device kind and type, cluster size and model, README
--     "Definitions") and has a positive mean step; a run with no comparable run before it has no
--     baseline and no finding, however much slower it is than the run before it. The message names
--     the baseline and why it is comparable. Severity high from high_ratio up, medium under it;
--     confidence high when both runs have the same ranks, medium otherwise. Evidence: the regressing
--     run's longest steps (the step row of the input whose steps answer, step_source, or the
--     profiler's step summary row where that answers). One row per evidence row; the rows of one finding share
--     finding_key (the columns are those of every rule_* query).
-- param run_id (integer, default null): Only this run; every run when null.
-- param threshold (real, default 1.1): Ratio of the run's mean step to its baseline's above which it is flagged.
-- param high_ratio (real, default 1.5): Ratio from which the finding is severity high.
-- param evidence_limit (integer, default 3): Evidence steps per finding.
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
with history as (
    select run_id, name, start_ns, position
    from run_history
),

rank_means as (
    select run_id, rank_id, avg(duration_ns) as mean_ns
    from step_answer
    group by run_id, rank_id
),

run_means as (
    select h.run_id, h.name, h.position, avg(m.mean_ns) as mean_ns, count(*) as ranks
    from rank_means as m
    join history as h on h.run_id = m.run_id
    group by h.run_id, h.name, h.position
    having avg(m.mean_ns) > 0
),

baselines as (
    -- each run's comparable runs before it, the last first
    select
        r.run_id, r.name, r.mean_ns, r.ranks, b.run_id as previous_run_id, b.name as previous_name,
        b.mean_ns as previous_mean_ns, b.ranks as previous_ranks, c.reason, c.name_overlap, c.type_overlap,
        row_number() over (partition by r.run_id order by b.position desc) as nth
    from run_means as r
    join run_comparable as c on c.run_id = r.run_id and c.comparable = 1
    join run_means as b on b.run_id = c.other_run_id and b.position < r.position
    where :run_id is null or r.run_id = :run_id
),

ordered as (
    select
        run_id, name, mean_ns, ranks, previous_run_id, previous_name, previous_mean_ns, previous_ranks, reason,
        name_overlap, type_overlap
    from baselines
    where nth = 1
),

shared as (
    -- the ranks a run shares with its baseline
    select o.run_id, count(b.rank_id) as shared_ranks
    from ordered as o
    join rank_means as a on a.run_id = o.run_id
    left join rank_means as b on b.run_id = o.previous_run_id and b.rank_id = a.rank_id
    group by o.run_id
),

flagged as (
    select
        o.run_id, o.name, o.mean_ns, o.ranks, o.previous_run_id, o.previous_name, o.previous_mean_ns,
        o.mean_ns / o.previous_mean_ns as ratio, o.previous_ranks, r.shared_ranks, o.reason, o.name_overlap,
        o.type_overlap
    from ordered as o
    join shared as r on r.run_id = o.run_id
    where o.mean_ns > :threshold * o.previous_mean_ns
),

steps as (
    select
        s.run_id, s.rank_id, s.step_id, s.duration_ns, s.basis,
        coalesce(u.source_id, st.source_id) as source_id,
        u.source_row,
        case when u.source_id is not null then 'step_trace_time' else 'step' end as table_name,
        row_number() over (partition by s.run_id order by s.duration_ns desc, s.rank_id, s.step_id) as position
    from step_answer as s
    join flagged as f on f.run_id = s.run_id
    left join step_summary as u on u.run_id = s.run_id and u.rank_id = s.rank_id and u.step_id = s.step_id
    left join step_source as a on a.run_id = s.run_id and a.rank_id = s.rank_id
    left join step as st on st.source_id = a.source_id and st.rank_id = s.rank_id and st.step_id = s.step_id
),

final as (
    select
        'run ' || f.run_id || ' after run ' || f.previous_run_id as finding_key,
        f.run_id,
        null as rank_id,
        null as step_id,
        'run ' || f.name as subject,
        case when f.ratio >= :high_ratio then 'high' else 'medium' end as severity,
        case when f.shared_ranks = f.ranks and f.shared_ranks = f.previous_ranks then 'high' else 'medium' end
            as confidence,
        'Run ' || f.name || ' takes ' || cast(round(f.ratio, 2) as text) || 'x the mean step of run '
        || f.previous_name || ', the last comparable run before it (' || format_ns(f.mean_ns) || ' against '
        || format_ns(f.previous_mean_ns) || '; ' || f.reason || '): compare them with `warehouse compare '
        || f.previous_run_id || ' ' || f.run_id || '`.' as message,
        json_object(
            'mean_step_ns', f.mean_ns, 'previous_run_id', f.previous_run_id,
            'previous_mean_step_ns', f.previous_mean_ns, 'ratio', round(f.ratio, 4),
            'comparable', f.reason, 'name_overlap', round(f.name_overlap, 4), 'type_overlap', round(f.type_overlap, 4)
        ) as numbers,
        s.table_name as evidence_table,
        s.source_id as evidence_source_id,
        s.source_row as evidence_source_row,
        null as evidence_slice_id,
        null as evidence_kernel_id,
        'rank ' || s.rank_id || ' step ' || s.step_id || ' took ' || format_ns(s.duration_ns)
        || ' (basis ' || s.basis || ')' as evidence_note,
        s.position
    from flagged as f
    join steps as s on s.run_id = f.run_id
    where s.position <= :evidence_limit
)

-- include: _rule_output
order by run_id, position
