-- title: Rule mindspore_parallel_strategy
-- description: Per run of a MindSpore cluster, the parallel strategy's costs as MindInsight's parallel
--     proposer judges them (mindinsight/profiler/proposer/allproposers/parallel_proposer.py, with its
--     parallel analyser's figures; its thresholds are the defaults), over each rank's means, the last
--     record of its cluster analysis file (ascend_cluster_analyse_{mode}_{stages}_{ranks}_{rank}.csv:
--     mindspore_cluster_step), and only when every rank of the cluster has one, as MindInsight
--     requires. Subject data_parallel_communication / model_parallel_communication: communication not
--     hidden by computation is more than comm_rate of the ranks' computation and communication
--     (rounded to 4 decimals). Pipeline parallel: subject between_stage_communication, the receive
--     operators' time between stages more than comm_rate of it; within_stage_communication, the stage
--     whose collective communication takes the largest share, when more than comm_rate; stage_flops, the
--     stage whose ranks' mean FLOPs (flops_summary_{rank}.json) is more than flops_excess above the mean
--     of the stages (its ranks do the most computation and the others wait). Severity high from
--     high_rate (communication) or high_excess (FLOPs), medium under it; confidence high (the files'
--     own figures). Evidence: each rank's means (the stage's ranks for a stage's finding).
-- param run_id (integer, default null): Only this run; every run when null.
-- param comm_rate (real, default 0.1): Share of communication above which a finding is made (MindInsight's communication thresholds).
-- param flops_excess (real, default 0.2): How far above the stages' mean a stage's FLOPs must be (MindInsight's _flops_threshold).
-- param high_rate (real, default 0.3): Share of communication from which a finding is severity high.
-- param high_excess (real, default 0.5): FLOPs excess from which a stage's finding is severity high.
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
with ranks as (
    select
        s.run_id, c.rank_id, c.source_id, c.source_row, c.parallel_mode, c.stage_num, c.rank_size, c.computation_ns,
        c.communication_alone_ns, c.receive_alone_ns, c.collective_communication_alone_ns, p.stage_id
    from mindspore_cluster_step as c
    join source as s on s.id = c.source_id and s.status = 'ok'
    join mindspore_cluster_rank as p on p.run_id = s.run_id and p.rank_id = c.rank_id
        and p.parallel_mode = c.parallel_mode and p.stage_num = c.stage_num and p.rank_size = c.rank_size
    where c.step_id is null and (:run_id is null or s.run_id = :run_id)
),

clusters as (
    select
        run_id, min(parallel_mode) as parallel_mode, min(stage_num) as stage_num, min(rank_size) as rank_size,
        sum(computation_ns) as computation_ns, sum(communication_alone_ns) as communication_ns,
        sum(receive_alone_ns) as receive_ns
    from ranks
    group by run_id
    having count(distinct rank_id) = min(rank_size) and count(distinct parallel_mode) = 1
),

stage_rates as (
    select
        r.run_id, r.stage_id,
        1.0 * sum(r.collective_communication_alone_ns) / nullif(sum(r.computation_ns + r.communication_alone_ns), 0)
            as rate,
        row_number() over (partition by r.run_id order by
            1.0 * sum(r.collective_communication_alone_ns) / nullif(sum(r.computation_ns + r.communication_alone_ns), 0)
            desc, r.stage_id) as place
    from ranks as r
    join clusters as c on c.run_id = r.run_id and c.parallel_mode = 'pipeline-parallel'
    group by r.run_id, r.stage_id
),

stage_flops as (
    select r.run_id, r.stage_id, sum(f.mflops) / (min(r.rank_size) / min(r.stage_num)) as mflops
    from ranks as r
    join clusters as c on c.run_id = r.run_id and c.parallel_mode = 'pipeline-parallel'
    join mindspore_flops_summary as f on f.rank_id = r.rank_id
    join source as fs on fs.id = f.source_id and fs.status = 'ok' and fs.run_id = r.run_id
    group by r.run_id, r.stage_id
),

flops_excess as (
    select run_id, stage_id, mflops, mflops / avg(mflops) over (partition by run_id) - 1 as excess,
        row_number() over (partition by run_id order by mflops desc, stage_id) as place
    from stage_flops
),

findings as (
    select run_id, replace(parallel_mode, '-parallel', '') || '_parallel_communication' as subject, null as stage_id,
        round(1.0 * communication_ns / (computation_ns + communication_ns), 4) as rate, null as excess, null as mflops
    from clusters
    where parallel_mode in ('data-parallel', 'model-parallel') and computation_ns > 0 and communication_ns > 0
    union all
    select run_id, 'between_stage_communication', null, round(1.0 * receive_ns / (computation_ns + communication_ns), 4),
        null, null
    from clusters
    where parallel_mode = 'pipeline-parallel' and computation_ns > 0 and communication_ns > 0 and receive_ns > 0
    union all
    select run_id, 'within_stage_communication', stage_id, rate, null, null
    from stage_rates
    where place = 1
    union all
    select run_id, 'stage_flops', stage_id, null, excess, mflops
    from flops_excess
    where place = 1 and excess > :flops_excess
),

judged as (
    select run_id, subject, stage_id, rate, excess, mflops
    from findings
    where rate is null or rate > :comm_rate
),

evidence as (
    select
        'mindspore_cluster_step' as evidence_table, run_id, stage_id, source_id, source_row,
        'rank ' || rank_id || ' (stage ' || stage_id || '): computation ' || format_ns(computation_ns)
        || ', communication alone ' || format_ns(communication_alone_ns)
        || coalesce(', receive ' || format_ns(receive_alone_ns), '')
        || coalesce(', collective ' || format_ns(collective_communication_alone_ns), '') as note,
        rank_id as position
    from ranks
    union all
    select 'mindspore_flops_summary', r.run_id, r.stage_id, f.source_id, f.source_row,
        'rank ' || r.rank_id || ' (stage ' || r.stage_id || '): ' || f.mflops || ' MFLOPs', r.rank_id
    from ranks as r
    join mindspore_flops_summary as f on f.rank_id = r.rank_id
    join source as fs on fs.id = f.source_id and fs.status = 'ok' and fs.run_id = r.run_id
),

final as (
    select
        'run ' || j.run_id || ' ' || j.subject as finding_key,
        j.run_id,
        null as rank_id,
        null as step_id,
        j.subject,
        case
            when j.rate >= :high_rate or j.excess >= :high_excess then 'high'
            else 'medium'
        end as severity,
        'high' as confidence,
        case j.subject
            when 'between_stage_communication' then
                'The receive operators between pipeline stages take ' || cast(round(100 * j.rate, 2) as text)
                || '% of the ranks'' computation and communication (over ' || cast(round(100 * :comm_rate, 2) as text)
                || '%): the stages wait for each other; balance the stages or overlap the sends.'
            when 'within_stage_communication' then
                'Collective communication within stage ' || j.stage_id || ' takes '
                || cast(round(100 * j.rate, 2) as text) || '% of its ranks'' computation and communication (over '
                || cast(round(100 * :comm_rate, 2) as text) || '%): the stage''s parallel split communicates too much.'
            when 'stage_flops' then
                'Stage ' || j.stage_id || ' computes ' || cast(round(j.mflops, 4) as text) || ' MFLOPs per rank, '
                || cast(round(100 * j.excess, 2) as text) || '% above the stages'' mean (over '
                || cast(round(100 * :flops_excess, 2) as text) || '%): the other stages wait for it; move layers away.'
            else
                'Communication not hidden by computation takes ' || cast(round(100 * j.rate, 2) as text)
                || '% of the ranks'' computation and communication (over ' || cast(round(100 * :comm_rate, 2) as text)
                || '%) in this ' || replace(j.subject, '_communication', '') || ' run.'
        end as message,
        json_object('stage', j.stage_id, 'rate', j.rate, 'excess', round(j.excess, 4), 'mflops', round(j.mflops, 4))
            as numbers,
        e.evidence_table, e.source_id as evidence_source_id, e.source_row as evidence_source_row,
        null as evidence_slice_id, null as evidence_kernel_id, e.note as evidence_note, e.position
    from judged as j
    left join evidence as e on e.run_id = j.run_id
        and e.evidence_table = case when j.subject = 'stage_flops' then 'mindspore_flops_summary'
            else 'mindspore_cluster_step' end
        and (j.stage_id is null or e.stage_id = j.stage_id)
)

-- include: _rule_output
order by run_id, finding_key, position
