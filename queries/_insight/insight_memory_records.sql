-- title: Insight memory records
-- description: The memory records of one rank, by time, as MindStudio Insight's memory curve reads
--     them (server/src/modules/memory/database DbMemoryDataBase and TextMemoryDataBase,
--     QueryMemoryView): time in ms from the rank's time zero (3 decimals), totals in MB
--     (2 decimals), a total the record lacks as 0 (the server reads a NULL as 0.0), the stream as
--     text ('' when none). Only the input answering the rank's memory (answer_source, fact
--     memory): a rank exported both as a database and as text is read once.
-- param run_id (integer, required): The run (run.run_id).
-- param rank_id (integer, required): The rank.
-- param zero_ns (integer, required): Time zero of the rank's card (its first slice start), in ns.
-- column component: Profiler component: APP, PTA, GE, PTA+GE, WORKSPACE, MindSpore...
-- column time_ms: Time of the record in ms after the card's time zero.
-- column allocated_mb: Total allocated memory in MB.
-- column reserved_mb: Total reserved memory in MB.
-- column active_mb: Total active memory in MB.
-- column stream: Stream address as text, '' when the record has none.
with records as (
    select m.component, m.ts, m.source_row, m.total_allocated_bytes, m.total_reserved_bytes,
        m.total_active_bytes, m.stream_ptr
    from memory_record as m
    where m.source_id in (
        select source_id from answer_source where fact = 'memory' and run_id = :run_id and rank_id = :rank_id
    )
),

final as (
    select
        component,
        ts,
        source_row,
        round((ts - :zero_ns) / 1000000.0, 3) as time_ms,
        round(coalesce(total_allocated_bytes, 0) / 1048576.0, 2) as allocated_mb,
        round(coalesce(total_reserved_bytes, 0) / 1048576.0, 2) as reserved_mb,
        round(coalesce(total_active_bytes, 0) / 1048576.0, 2) as active_mb,
        coalesce(cast(stream_ptr as text), '') as stream
    from records
)

select component, time_ms, allocated_mb, reserved_mb, active_mb, stream
from final
order by ts, source_row
