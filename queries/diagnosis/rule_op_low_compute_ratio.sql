-- title: Rule op_low_compute_ratio
-- description: Operator profiles (seed 000) whose compute pipes are busy less than threshold
--     percent of the cycles on average over the cores (pipe_ratio of the memory heat map:
--     Cube, Vector, Vector1; the busiest pipe of each core counts): the cores mostly wait
--     for data or scalar work. Fills the advice the input leaves empty (numbers.input_advice).
--     Severity medium, confidence medium (the pipe ratios alone do not say what the cores
--     wait for). Evidence: the least busy cores' pipe rows (source_row is the block's byte offset).
--     run_id is the run of the profile's input (op_run's source).
-- param run_id (integer, default null): Only this run; every run when null.
-- param threshold (real, default 30): Mean busiest-pipe ratio in percent under which an operator is flagged.
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
with per_core as (
    select source_id, block_offset, block_id, max(ratio) as busy_pct
    from pipe_ratio
    where ratio >= 0
    group by source_id, block_offset, block_id
),

profiles as (
    -- the run is that of the profile's input (the op_run's source)
    select c.source_id, s.run_id, count(*) as cores, avg(c.busy_pct) as mean_busy_pct,
        min(c.busy_pct) as min_busy_pct
    from per_core as c
    join source as s on s.id = c.source_id
    where :run_id is null or s.run_id = :run_id
    group by c.source_id, s.run_id
    having avg(c.busy_pct) < :threshold
),

pipes as (
    select p.source_id, p.block_offset, p.block_id, p.pipe, p.ratio, c.busy_pct,
        row_number() over (partition by p.source_id order by c.busy_pct, p.block_id, p.pipe) as position
    from pipe_ratio as p
    join per_core as c on c.source_id = p.source_id and c.block_offset = p.block_offset and c.block_id = p.block_id
    join profiles as f on f.source_id = p.source_id
),

final as (
    select
        'source ' || f.source_id as finding_key,
        f.run_id,
        null as rank_id,
        null as step_id,
        coalesce(r.name, 'operator') as subject,
        'medium' as severity,
        'medium' as confidence,
        'Operator ' || coalesce(r.name, '?') || ': its busiest compute pipe is active '
        || cast(round(f.mean_busy_pct, 1) as text) || '% of the cycles on average over ' || f.cores
        || ' cores: compute waits for data; double-buffer the copies (MTE2/MTE3) against compute, use larger tiles, '
        || 'and check the memory heat map for the slow path.' as message,
        json_object(
            'cores', f.cores, 'mean_busy_pct', round(f.mean_busy_pct, 2), 'min_busy_pct', f.min_busy_pct,
            'threshold_pct', :threshold,
            'input_advice', (select count(*) from op_advice as a where a.source_id = f.source_id)
        ) as numbers,
        'pipe_ratio' as evidence_table,
        p.source_id as evidence_source_id,
        p.block_offset as evidence_source_row,
        null as evidence_slice_id,
        null as evidence_kernel_id,
        'core ' || p.block_id || ' ' || p.pipe || ' busy ' || cast(round(p.ratio, 1) as text) || '%' as evidence_note,
        p.position
    from profiles as f
    join pipes as p on p.source_id = f.source_id
    left join op_run as r on r.source_id = f.source_id
    where p.position <= :evidence_limit
)

-- include: _rule_output
order by finding_key, position
