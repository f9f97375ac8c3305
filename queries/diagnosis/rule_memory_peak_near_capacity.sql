-- title: Rule memory_peak_near_capacity
-- description: Per run and rank, the peak of the framework's reserved device memory
--     (memory_record total_reserved_bytes of the PTA component, torch_npu's caching allocator;
--     of the APP component, the whole process, when the rank records no PTA; never the two
--     mixed) against the device's capacity: at threshold of it or above, the
--     next larger batch or sequence runs out of memory and the allocator fragments. Severity
--     high from high_ratio. The profile does not state the capacity, so it is a parameter
--     (default 64 GiB, an Ascend 910B's HBM): confidence medium. Evidence: the peak sample and
--     the largest operator allocations alive at that moment (op_memory). Only the inputs that
--     answer the rank's memory and operator memory (answer_source): a rank exported both as a
--     database and as text is read once.
-- param run_id (integer, default null): Only this run; every run when null.
-- param capacity_bytes (integer, default 68719476736): Device memory capacity in bytes.
-- param threshold (real, default 0.9): Share of the capacity from which a peak is flagged.
-- param high_ratio (real, default 0.95): Share of the capacity from which the finding is severity high.
-- param evidence_limit (integer, default 4): Evidence rows per finding.
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
with records as (
    select
        a.run_id, m.rank_id, m.source_id, m.source_row, m.component, m.ts, m.total_reserved_bytes,
        m.total_allocated_bytes
    from memory_record as m
    join answer_source as a on a.source_id = m.source_id and a.fact = 'memory'
    where m.component in ('PTA', 'APP') and m.total_reserved_bytes is not null
        and (:run_id is null or a.run_id = :run_id)
),

peaks as (
    -- PTA's samples before APP's: a rank's peak is PTA's whenever it records PTA
    select
        run_id, rank_id, source_id, source_row, component, ts, total_reserved_bytes, total_allocated_bytes,
        row_number() over (
            partition by run_id, rank_id
            order by case when component = 'PTA' then 0 else 1 end, total_reserved_bytes desc, ts, source_row
        ) as peak_order
    from records
),

flagged as (
    select run_id, rank_id, source_id, source_row, component, ts, total_reserved_bytes, total_allocated_bytes,
        1.0 * total_reserved_bytes / :capacity_bytes as ratio
    from peaks
    where peak_order = 1 and total_reserved_bytes >= :threshold * :capacity_bytes
),

alive as (
    select
        f.run_id, f.rank_id, o.source_id, o.source_row, o.name, o.size_bytes,
        row_number() over (partition by f.run_id, f.rank_id order by o.size_bytes desc, o.source_row) as size_order
    from flagged as f
    join answer_source as a on a.run_id = f.run_id and a.rank_id = f.rank_id and a.fact = 'op_memory'
    join op_memory as o on o.source_id = a.source_id and o.rank_id = f.rank_id and o.allocation_ts <= f.ts
        and (o.release_ts is null or o.release_ts > f.ts)
),

evidence as (
    select run_id, rank_id, 1 as position, 'memory_record' as table_name, source_id, source_row,
        'peak sample (' || component || '): ' || format_bytes(total_reserved_bytes) || ' reserved'
        || coalesce(', ' || format_bytes(total_allocated_bytes) || ' allocated', '')
        as note
    from flagged
    union all
    select run_id, rank_id, 1 + size_order as position, 'op_memory' as table_name, source_id, source_row,
        name || ' holds ' || format_bytes(size_bytes) || ' at the peak' as note
    from alive
),

final as (
    select
        'rank ' || f.rank_id as finding_key,
        f.run_id,
        f.rank_id,
        (select w.step_id from step_window as w
         where w.run_id = f.run_id and w.rank_id = f.rank_id and f.ts >= w.start_ns and f.ts < w.end_ns)
        as step_id,
        'rank ' || f.rank_id as subject,
        case when f.ratio >= :high_ratio then 'high' else 'medium' end as severity,
        'medium' as confidence,
        'Rank ' || f.rank_id || ' reserves ' || format_bytes(f.total_reserved_bytes)
        || ' at its peak (' || f.component || '), ' || cast(round(100 * f.ratio, 1) as text) || '% of '
        || format_bytes(:capacity_bytes) || ': close to out of memory; '
        || 'free or reuse the largest tensors below, recompute activations, or shard optimizer states.' as message,
        json_object(
            'component', f.component, 'peak_reserved_bytes', f.total_reserved_bytes,
            'peak_allocated_bytes', f.total_allocated_bytes, 'capacity_bytes', :capacity_bytes,
            'ratio', round(f.ratio, 4), 'peak_ts', f.ts
        ) as numbers,
        e.table_name as evidence_table,
        e.source_id as evidence_source_id,
        e.source_row as evidence_source_row,
        null as evidence_slice_id,
        null as evidence_kernel_id,
        e.note as evidence_note,
        e.position
    from flagged as f
    join evidence as e on e.run_id = f.run_id and e.rank_id = f.rank_id
    where e.position <= :evidence_limit
)

-- include: _rule_output
order by run_id, finding_key, position
