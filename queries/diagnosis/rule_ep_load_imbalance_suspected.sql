-- title: Rule ep_load_imbalance_suspected
-- description: Per run and step, each rank's time in the expert kernels of its MoE layers
--     (the answering kernels whose category is one of expert_categories: grouped matmul and the
--     fused dispatch-FFN-combine) against the median over the ranks that ran any of its pipeline
--     stage (rank_place.peer_key; every rank of the run where the run does not say its shape: a
--     stage holding more MoE layers is no overloaded expert; numbers.compared_with says which)
--     (ep_load_balance compares whole captures with the mean). With expert parallelism a rank
--     whose experts are routed more tokens runs these kernels longer and the other ranks wait
--     for it at the combine, so the dispatch and combine kernels (where the light ranks wait)
--     are not counted. A rank above threshold times the median is flagged; severity high from
--     high_ratio up (medium without step rows). Confidence high when both cross-checks agree:
--     the rank's other compute (outside the MoE layers) is within threshold of its median, so
--     the rank is not slow at everything, and some of its expert kernels run on input shapes
--     no other rank runs in the step (more tokens, seen directly); medium when the shapes do
--     not show it (padded, or not recorded); low when its other compute is slow too (a slow
--     rank explains it as well) or without step rows (step -1: the ranks' whole captures
--     compared). Ranks unknown to the input (-1) are left out. Evidence: the rank's expert
--     kernels that ran longest past the mean of the same kernel name over the ranks in that step.
-- param run_id (integer, default null): Only this run; every run when null.
-- param expert_categories (text, default 'moe.grouped_matmul moe.dispatch_expert_compute'): Kernel categories of the expert kernels, separated by spaces.
-- param threshold (real, default 1.2): Ratio of a rank's expert kernel time to the median above which it is flagged.
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
with step_kernels as (
    select
        run_id, step_id, rank_id, kernel_id, source_id, source_row, slice_id, name, input_shapes, dur, is_compute,
        case when category like 'moe.%' then 1 else 0 end as in_moe_layer,
        case when instr(' ' || :expert_categories || ' ', ' ' || category || ' ') > 0 then 1 else 0 end as is_expert
    from step_kernel
    where rank_id >= 0 and (:run_id is null or run_id = :run_id)
),

expert_kernels as (
    select
        run_id, step_id, rank_id, kernel_id, source_id, source_row, slice_id, name, input_shapes, dur,
        avg(dur) over (partition by run_id, step_id, name) as name_mean_ns
    from step_kernels
    where is_expert = 1
),

per_rank as (
    select
        k.run_id, k.step_id, k.rank_id, coalesce(p.peer_key, 'every rank') as peer_key,
        sum(case when k.is_expert = 1 then k.dur else 0 end) as expert_ns,
        sum(k.is_expert) as expert_kernel_count,
        sum(case when k.is_expert = 0 and k.is_compute = 1 and k.in_moe_layer = 0 then k.dur else 0 end) as other_ns
    from step_kernels as k
    left join rank_place as p on p.run_id = k.run_id and p.rank_id = k.rank_id
    group by k.run_id, k.step_id, k.rank_id, coalesce(p.peer_key, 'every rank')
    having sum(k.is_expert) > 0
),

step_measures as (
    -- per set of peers (a pipeline stage, or every rank)
    select run_id, step_id, rank_id, 'expert_ns ' || peer_key as measure, expert_ns as value from per_rank
    union all
    select run_id, step_id, rank_id, 'other_ns ' || peer_key, other_ns from per_rank
),

-- include: _step_medians
,

own_shapes as (
    -- (name, input shapes) of expert kernels that a single rank runs in the step
    select run_id, step_id, name, input_shapes, min(rank_id) as rank_id
    from expert_kernels
    where input_shapes is not null and input_shapes <> ''
    group by run_id, step_id, name, input_shapes
    having count(distinct rank_id) = 1
),

flagged as (
    select
        r.run_id, r.step_id, r.rank_id, r.peer_key, m.ranks, r.expert_ns, r.expert_kernel_count, r.other_ns,
        m.median as median_ns, o.median as other_median_ns,
        1.0 * r.expert_ns / m.median as ratio,
        1.0 * r.other_ns / nullif(o.median, 0) as other_ratio,
        (
            select count(*) from expert_kernels as k
            join own_shapes as o
                on o.run_id = k.run_id and o.step_id = k.step_id and o.name = k.name
                and o.input_shapes = k.input_shapes and o.rank_id = k.rank_id
            where k.run_id = r.run_id and k.step_id = r.step_id and k.rank_id = r.rank_id
        ) as own_shape_kernels,
        case when r.step_id = -1 then 'the whole capture' else 'step ' || r.step_id end as period
    from per_rank as r
    join step_medians as m on m.run_id = r.run_id and m.step_id = r.step_id and m.measure = 'expert_ns ' || r.peer_key
    join step_medians as o on o.run_id = r.run_id and o.step_id = r.step_id and o.measure = 'other_ns ' || r.peer_key
    where m.ranks > 1 and m.median > 0 and r.expert_ns > :threshold * m.median
),

evidence as (
    select
        f.run_id, f.step_id, f.rank_id, k.kernel_id, k.source_id, k.source_row, k.slice_id, k.name, k.input_shapes,
        k.dur, k.name_mean_ns,
        row_number() over (
            partition by f.run_id, f.step_id, f.rank_id order by k.dur - k.name_mean_ns desc, k.kernel_id
        ) as position
    from flagged as f
    join expert_kernels as k on k.run_id = f.run_id and k.step_id = f.step_id and k.rank_id = f.rank_id
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
            when f.step_id = -1 or f.other_ratio > :threshold then 'low'
            when f.other_ratio is not null and f.own_shape_kernels > 0 then 'high'
            else 'medium'
        end as confidence,
        'Rank ' || f.rank_id || ' spends ' || cast(round(f.ratio, 2) as text) || 'x the median of the ranks '
        || case when f.peer_key = 'every rank' then '' else 'of pipeline ' || f.peer_key || ' ' end || 'in '
        || f.period || ' in its ' || f.expert_kernel_count || ' expert kernels (' || format_ns(f.expert_ns)
        || ' against ' || format_ns(f.median_ns) || ') and '
        || coalesce(cast(round(f.other_ratio, 2) as text) || 'x the median in its other compute', 'has no other compute')
        || case
            when f.other_ratio > :threshold then ': it is slow at everything, a slow rank explains it as well as '
                || 'uneven expert routing; look at slow_rank_suspected first.'
            else case
                when f.own_shape_kernels > 0 then '; ' || f.own_shape_kernels
                    || ' of its expert kernels run on input shapes no other rank runs: more tokens are routed to its experts'
                else '; its expert kernels run on the shapes of the other ranks (padded or not recorded), so more '
                    || 'tokens are inferred from the time alone'
            end || ' (expert-parallel load imbalance) and the other ranks wait for it at the combine; balance the '
                || 'routing (auxiliary balance loss, capacity factor, redundant or re-placed hot experts).'
        end as message,
        json_object(
            'expert_ns', f.expert_ns, 'median_ns', f.median_ns, 'ratio', round(f.ratio, 4),
            'other_ns', f.other_ns, 'other_median_ns', f.other_median_ns, 'other_ratio', round(f.other_ratio, 4),
            'expert_kernels', f.expert_kernel_count, 'own_shape_kernels', f.own_shape_kernels,
            'compared_with', f.peer_key
        ) as numbers,
        'kernel' as evidence_table,
        e.source_id as evidence_source_id,
        e.source_row as evidence_source_row,
        e.slice_id as evidence_slice_id,
        e.kernel_id as evidence_kernel_id,
        e.name || ' ran ' || format_ns(e.dur) || coalesce(' on input shapes ' || nullif(e.input_shapes, ''), '')
        || '; its mean over the ranks in ' || f.period || ' is ' || format_ns(e.name_mean_ns) as evidence_note,
        e.position
    from flagged as f
    join evidence as e on e.run_id = f.run_id and e.step_id = f.step_id and e.rank_id = f.rank_id
    where e.position <= :evidence_limit
)

-- include: _rule_output
order by run_id, step_id, rank_id, position
