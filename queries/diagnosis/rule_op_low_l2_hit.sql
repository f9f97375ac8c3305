-- title: Rule op_low_l2_hit
-- description: Operator profiles (seed 000) whose cores hit the L2 cache less than threshold
--     percent of the time (l2_cache hit_ratio of the memory heat map, core_load
--     l2cache_hit_rate of the inter-core load; -1 means invalid and is skipped): data is
--     fetched from HBM again instead of reused. Fills the advice the input leaves empty
--     (numbers.input_advice counts the advice strings the profile itself gave). Severity
--     medium; confidence high when both blocks agree, medium with one. Evidence: the cores'
--     rows, lowest first (source_row is the block's byte offset).
--     run_id is the run of the profile's input (op_run's source).
-- param run_id (integer, default null): Only this run; every run when null.
-- param threshold (real, default 60): Hit rate in percent under which a core is flagged.
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
with cores as (
    select source_id, block_offset, 'l2_cache' as table_name, block_id as core_id, op_type as core_type,
        hit_ratio as hit_pct
    from l2_cache
    where hit_ratio >= 0
    union all
    select source_id, block_offset, 'core_load' as table_name, core_id, subcore_type || subcore_id as core_type,
        l2cache_hit_rate as hit_pct
    from core_load
    where l2cache_hit_rate >= 0
),

low as (
    select source_id, block_offset, table_name, core_id, core_type, hit_pct,
        row_number() over (partition by source_id order by hit_pct, table_name, core_id) as position
    from cores
    where hit_pct < :threshold
),

profiles as (
    -- the run is that of the profile's input (the op_run's source)
    select l.source_id, s.run_id, count(*) as low_cores, min(l.hit_pct) as min_hit_pct,
        count(distinct l.table_name) as blocks,
        (select count(*) from cores as c where c.source_id = l.source_id) as cores
    from low as l
    join source as s on s.id = l.source_id
    where :run_id is null or s.run_id = :run_id
    group by l.source_id, s.run_id
),

final as (
    select
        'source ' || p.source_id as finding_key,
        p.run_id,
        null as rank_id,
        null as step_id,
        coalesce(r.name, 'operator') as subject,
        'medium' as severity,
        case when p.blocks > 1 then 'high' else 'medium' end as confidence,
        'Operator ' || coalesce(r.name, '?') || ': ' || p.low_cores || ' of ' || p.cores
        || ' core figures hit L2 under ' || cast(:threshold as text) || '% (lowest '
        || cast(round(p.min_hit_pct, 1) as text) || '%): inputs are re-read from HBM; '
        || 'reorder the tiles so cores that share data run together and shrink the per-core working set.' as message,
        json_object(
            'low_cores', p.low_cores, 'cores', p.cores, 'min_hit_pct', p.min_hit_pct, 'threshold_pct', :threshold,
            'input_advice', (select count(*) from op_advice as a where a.source_id = p.source_id)
        ) as numbers,
        l.table_name as evidence_table,
        l.source_id as evidence_source_id,
        l.block_offset as evidence_source_row,
        null as evidence_slice_id,
        null as evidence_kernel_id,
        'core ' || l.core_id || ' (' || coalesce(l.core_type, '?') || '): L2 hit ' || cast(round(l.hit_pct, 1) as text)
        || '%' as evidence_note,
        l.position
    from profiles as p
    join low as l on l.source_id = p.source_id
    left join op_run as r on r.source_id = p.source_id
    where l.position <= :evidence_limit
)

-- include: _rule_output
order by finding_key, position
