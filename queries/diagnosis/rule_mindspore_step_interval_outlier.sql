-- title: Rule mindspore_step_interval_outlier
-- description: Per run of a MindSpore cluster, the rank whose step interval is the furthest above the
--     ranks' mean, as MindInsight's parallel proposer finds it
--     (mindinsight/profiler/proposer/allproposers/parallel_proposer.py _step_interval_analyze, its
--     threshold the default): each rank's mean iteration interval, the average record of its step trace
--     (view mindspore_step_interval, its parallel analyser's get_step_interval), more than excess above the
--     mean of the ranks, only when every rank of the cluster (its cluster analysis files:
--     mindspore_cluster_rank) has one, as MindInsight requires. The iteration interval runs from the
--     previous step's end to the forward pass: a rank that starts its steps late makes the others wait at
--     the next collective. MindInsight rounds each rank's figure to 4 decimals of a ms before it averages;
--     the rule averages the exact figures. Severity high from high_excess, medium under it; confidence
--     high (the files' own figures). The message names the rank's pipeline stage where the run has
--     stages, with its stage's mean (a whole stage above the mean points at the stage's work, not the
--     rank). Evidence: every rank's average record.
-- param run_id (integer, default null): Only this run; every run when null.
-- param excess (real, default 0.2): How far above the ranks' mean a rank's step interval must be (MindInsight's _step_interval_threshold).
-- param high_excess (real, default 0.5): Excess from which the finding is severity high.
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
with clusters as (
    select c.run_id, min(c.stage_num) as stage_num
    from mindspore_cluster_rank as c
    join mindspore_step_interval as i on i.run_id = c.run_id and i.rank_id = c.rank_id
    where :run_id is null or c.run_id = :run_id
    group by c.run_id
    having count(distinct c.rank_id) = min(c.rank_size) and min(c.rank_size) = max(c.rank_size)
        and max(i.ranks) = min(c.rank_size)
),

intervals as (
    select
        i.run_id, i.rank_id, i.source_id, i.source_row, i.stage_id, c.stage_num, i.step_interval_ns, i.ranks_mean_ns,
        i.excess, avg(i.step_interval_ns) over (partition by i.run_id, i.stage_id) as stage_mean_ns,
        row_number() over (partition by i.run_id order by i.excess desc, i.rank_id) as place
    from mindspore_step_interval as i
    join clusters as c on c.run_id = i.run_id
),

findings as (
    select run_id, rank_id, stage_id, stage_num, step_interval_ns, ranks_mean_ns, excess, stage_mean_ns
    from intervals
    where place = 1 and excess > :excess
),

evidence as (
    select
        run_id, source_id, source_row,
        'rank ' || rank_id || case when stage_num > 1 then ' (stage ' || stage_id || ')' else '' end
        || ': step interval ' || format_ns(step_interval_ns) as note,
        rank_id as position
    from intervals
),

final as (
    select
        'run ' || f.run_id || ' rank ' || f.rank_id || ' step_interval' as finding_key,
        f.run_id,
        f.rank_id,
        null as step_id,
        'step_interval' as subject,
        case when f.excess >= :high_excess then 'high' else 'medium' end as severity,
        'high' as confidence,
        'Rank ' || f.rank_id || case when f.stage_num > 1 then ' (stage ' || f.stage_id || ')' else '' end
        || ' takes ' || format_ns(f.step_interval_ns) || ' from one step''s end to the next forward pass, '
        || cast(round(100 * f.excess, 2) as text) || '% above the ranks'' mean of ' || format_ns(f.ranks_mean_ns)
        || ' (over ' || cast(round(100 * :excess, 2) as text) || '%)'
        || case when f.stage_num > 1 then '; its stage''s ranks average ' || format_ns(f.stage_mean_ns) else '' end
        || ': the other ranks wait for it at the next collective; look at its data and host work between steps.'
            as message,
        json_object('stage', case when f.stage_num > 1 then f.stage_id end,
            'step_interval_ms', round(f.step_interval_ns / 1000000.0, 4),
            'percent', round(100 * f.excess, 2), 'ranks_mean_ms', round(f.ranks_mean_ns / 1000000.0, 4),
            'stage_mean_ms', case when f.stage_num > 1 then round(f.stage_mean_ns / 1000000.0, 4) end) as numbers,
        'mindspore_step_average' as evidence_table, e.source_id as evidence_source_id,
        e.source_row as evidence_source_row, null as evidence_slice_id, null as evidence_kernel_id,
        e.note as evidence_note, e.position
    from findings as f
    left join evidence as e on e.run_id = f.run_id
)

-- include: _rule_output
order by run_id, finding_key, position
