-- title: Rule slow_rank_suspected
-- description: Per run and step, each rank's compute (step_compute: the profiler's own Computing
--     where it states one for every rank of the step, else the summed duration of the rank's
--     compute kernels; a rank whose kernels fall more than 5 % short of the profiler's Computing
--     is never judged on them; the message says which measure) against the median over its
--     peers: the other ranks of its pipeline stage (rank_place.peer_key: a data-parallel group
--     and its tensor-parallel neighbours compute alike), never a rank of another stage (a pipeline
--     imbalance is its own finding, pipeline_stage_imbalance). Where the run does not say its
--     parallel groups (run_shape), every rank is compared with every other and the message
--     says so. A rank above threshold times its peers' median is suspected slow: the others
--     wait for it in every collective. The floor: msprof-analyze's slow-rank analyser names a
--     slow rank once the spread (max - min) / mean of the ranks' compute passes 5 %
--     (RATIO_THRESHOLD 0.05, over all ranks and per pipeline stage); here one rank must compute
--     more than 15 % above the median of the others, three times that floor, so the few
--     percent two equal ranks differ by never make a finding. Severity high from high_ratio up
--     (medium without step rows). Confidence high when the cross-check agrees (the rank started
--     at least half of the step's multi-rank collectives last, HCCL operators of either
--     export, each instance within its group, hccl_operator_group), medium otherwise, low without step rows (step -1: the ranks' whole captures
--     compared). Ranks unknown to the input (-1) are left out. A rank alone in its stage has
--     no peer and is never flagged.
--     Evidence: the rank's kernels that ran longest past the mean of the same kernel name
--     over its peers in that step (answering kernels only: the db and the text export of
--     one rank are never both counted). One row per evidence row; the rows of one finding share
--     finding_key (the columns are those of every rule_* query).
-- param run_id (integer, default null): Only this run; every run when null.
-- param threshold (real, default 1.15): Ratio of a rank's compute to its peers' median above which it is flagged.
-- param high_ratio (real, default 1.3): Ratio from which the finding is severity high.
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
    -- each rank's compute with the set it is compared within (its stage, or every rank)
    select
        c.run_id, c.step_id, c.rank_id, c.compute_ns, c.measured_by,
        coalesce(p.peer_key, 'every rank') as peer_key
    from step_compute as c
    left join rank_place as p on p.run_id = c.run_id and p.rank_id = c.rank_id
    where :run_id is null or c.run_id = :run_id
),

step_measures as (
    -- per rank, its peers' compute: the median of the others, not of a set the rank is part of
    select o.run_id, o.step_id, o.rank_id, r.peer_key || ' but rank ' || r.rank_id as measure, o.compute_ns as value
    from placed as r
    join placed as o
        on o.run_id = r.run_id and o.step_id = r.step_id and o.peer_key = r.peer_key and o.rank_id <> r.rank_id
),

-- include: _step_medians
,

compute_kernels as (
    select k.run_id, k.step_id, k.rank_id, k.kernel_id, k.source_id, k.source_row, k.slice_id, k.name, k.dur, p.peer_key
    from step_kernel as k
    join placed as p on p.run_id = k.run_id and p.step_id = k.step_id and p.rank_id = k.rank_id
    where k.is_compute = 1
),

flagged as (
    select
        p.run_id, p.step_id, p.rank_id, p.peer_key, p.compute_ns, p.measured_by, m.median as median_ns,
        m.ranks as peers, 1.0 * p.compute_ns / m.median as ratio
    from placed as p
    join step_medians as m
        on m.run_id = p.run_id and m.step_id = p.step_id and m.measure = p.peer_key || ' but rank ' || p.rank_id
    where m.median > 0 and p.compute_ns > :threshold * m.median
),

step_ops as (
    -- the HCCL operators of each step (kernel_step: the profiler's rule), each in its instance's
    -- group (hccl_operator_group)
    select s.run_id, s.step_id, s.rank_id, g.instance_group as group_name, s.name, s.ts
    from kernel_step as s
    join hccl_operator_group as g on g.table_name = s.table_name and g.row_id = s.row_id
    where s.op_class = 'communication' and s.step_id is not null and (:run_id is null or s.run_id = :run_id)
),

instances as (
    select
        run_id, step_id, rank_id,
        count(*) over (partition by run_id, group_name, name) as ranks,
        row_number() over (partition by run_id, group_name, name order by ts desc, rank_id) as lateness_order
    from step_ops
),

lateness as (
    select
        run_id, step_id, rank_id,
        sum(case when ranks > 1 then 1 else 0 end) as collectives,
        sum(case when ranks > 1 and lateness_order = 1 then 1 else 0 end) as last_starts
    from instances
    group by run_id, step_id, rank_id
),

findings as (
    select
        f.run_id, f.step_id, f.rank_id, f.peer_key, f.compute_ns, f.measured_by, f.median_ns, f.peers, f.ratio,
        coalesce(l.collectives, 0) as collectives,
        coalesce(l.last_starts, 0) as last_starts,
        case when f.step_id = -1 then 'the whole capture' else 'step ' || f.step_id end as period,
        case
            when f.peer_key = 'every rank' then ''
            when f.peer_key = 'unplaced' then 'that the run''s parallel groups do not place '
            else 'of pipeline ' || f.peer_key || ' '
        end as scope,
        case
            when f.peer_key = 'every rank' then ' Compared with every rank: the run does not say its parallel groups.'
            when f.peer_key = 'unplaced' then ' Compared with the other ranks its parallel groups do not place.'
            else ' Compared with the ' || f.peers || ' other rank' || case when f.peers = 1 then '' else 's' end
                || ' of its pipeline stage only, never with another stage.'
        end as compared_with
    from flagged as f
    left join lateness as l on l.run_id = f.run_id and l.step_id = f.step_id and l.rank_id = f.rank_id
),

name_means as (
    select run_id, step_id, peer_key, name, avg(dur) as mean_ns
    from compute_kernels
    group by run_id, step_id, peer_key, name
),

evidence as (
    select
        f.run_id, f.step_id, f.rank_id, k.kernel_id, k.source_id, k.source_row, k.slice_id, k.name, k.dur, n.mean_ns,
        row_number() over (
            partition by f.run_id, f.step_id, f.rank_id order by k.dur - n.mean_ns desc, k.kernel_id
        ) as position
    from findings as f
    join compute_kernels as k on k.run_id = f.run_id and k.step_id = f.step_id and k.rank_id = f.rank_id
    join name_means as n
        on n.run_id = k.run_id and n.step_id = k.step_id and n.peer_key = k.peer_key and n.name = k.name
),

final as (
    select
        'run ' || f.run_id || ' rank ' || f.rank_id || ' step ' || f.step_id as finding_key,
        f.run_id,
        f.rank_id,
        f.step_id,
        'rank ' || f.rank_id as subject,
        case when f.ratio >= :high_ratio and f.step_id <> -1 then 'high' else 'medium' end as severity,
        case
            when f.step_id = -1 then 'low'
            when f.collectives > 0 and 2 * f.last_starts >= f.collectives then 'high'
            else 'medium'
        end as confidence,
        'Rank ' || f.rank_id || ' computes ' || cast(round(f.ratio, 2) as text) || 'x the median of the other ranks '
        || f.scope || 'in ' || f.period || ' (' || format_ns(f.compute_ns) || ' against '
        || format_ns(f.median_ns) || ', ' || case when f.measured_by = 'profiler' then 'the profiler''s Computing'
        else 'compute kernel time' end || ') and started ' || f.last_starts || ' of '
        || f.collectives || ' collectives last: the other ranks wait for it; look at its input data, '
        || 'its kernels below and its host (frequency, other load).' || f.compared_with as message,
        json_object(
            'compute_ns', f.compute_ns, 'median_ns', f.median_ns, 'measured_by', f.measured_by,
            'ratio', round(f.ratio, 4),
            'collectives', f.collectives, 'last_starts', f.last_starts, 'peers', f.peers,
            'compared_with', f.peer_key
        ) as numbers,
        'kernel' as evidence_table,
        e.source_id as evidence_source_id,
        e.source_row as evidence_source_row,
        e.slice_id as evidence_slice_id,
        e.kernel_id as evidence_kernel_id,
        e.name || ' ran ' || format_ns(e.dur) || '; its mean over the rank and its peers in '
        || f.period || ' is ' || format_ns(e.mean_ns) as evidence_note,
        e.position
    from findings as f
    join evidence as e on e.run_id = f.run_id and e.step_id = f.step_id and e.rank_id = f.rank_id
    where e.position <= :evidence_limit
)

-- include: _rule_output
order by run_id, step_id, rank_id, position
