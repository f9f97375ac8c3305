-- title: Insight memory operators
-- description: The operator memory blocks of one rank as MindStudio Insight's memory table shows
--     them (server/src/modules/memory DbMemoryDataBase GetSelectOperatorMemoryColumnAndAlias):
--     size in KB, times in ms from the rank's time zero, durations in ms (3 decimals), totals in
--     MB (2 decimals). Only the input answering the rank's operator memory (answer_source, fact
--     op_memory).
-- param run_id (integer, required): The run (run.run_id).
-- param rank_id (integer, required): The rank.
-- param zero_ns (integer, required): Time zero of the rank's card (its first slice start), in ns.
-- column id: The block's row in its input (what Memory/find/slice names it by).
-- column name: Name of the operator that allocated the block.
-- column size: Size in KB.
-- column allocation_ts: Allocation time in ns (absolute).
-- column allocation_time: Allocation time in ms after the time zero.
-- column release_time: Release time in ms after the time zero (NULL when never released).
-- column active_release_time: Time the block stopped being active, in ms after the time zero (NULL when never).
-- column duration: Allocation to release, in ms.
-- column active_duration: Allocation to active release, in ms.
-- column allocation_allocated: Total allocated memory at allocation, in MB.
-- column allocation_reserved: Total reserved memory at allocation, in MB.
-- column allocation_active: Total active memory at allocation, in MB.
-- column release_allocated: Total allocated memory at release, in MB.
-- column release_reserved: Total reserved memory at release, in MB.
-- column release_active: Total active memory at release, in MB.
-- column stream: Stream address as text, '' when the block has none.
with blocks as (
    select m.source_row, m.name, m.size_bytes, m.allocation_ts, m.release_ts, m.active_release_ts, m.dur,
        m.active_dur, m.allocation_total_allocated_bytes, m.allocation_total_reserved_bytes,
        m.allocation_total_active_bytes, m.release_total_allocated_bytes, m.release_total_reserved_bytes,
        m.release_total_active_bytes, m.stream_ptr
    from op_memory as m
    join answer_source as a on a.source_id = m.source_id and a.fact = 'op_memory'
    where a.run_id = :run_id and a.rank_id = :rank_id
),

final as (
    select
        source_row as id,
        name,
        round(size_bytes / 1024.0, 2) as size,
        allocation_ts,
        round((allocation_ts - :zero_ns) / 1000000.0, 3) as allocation_time,
        round((release_ts - :zero_ns) / 1000000.0, 3) as release_time,
        round((active_release_ts - :zero_ns) / 1000000.0, 3) as active_release_time,
        round(dur / 1000000.0, 3) as duration,
        round(active_dur / 1000000.0, 3) as active_duration,
        round(allocation_total_allocated_bytes / 1048576.0, 2) as allocation_allocated,
        round(allocation_total_reserved_bytes / 1048576.0, 2) as allocation_reserved,
        round(allocation_total_active_bytes / 1048576.0, 2) as allocation_active,
        round(release_total_allocated_bytes / 1048576.0, 2) as release_allocated,
        round(release_total_reserved_bytes / 1048576.0, 2) as release_reserved,
        round(release_total_active_bytes / 1048576.0, 2) as release_active,
        coalesce(cast(stream_ptr as text), '') as stream
    from blocks
)

select id, name, size, allocation_ts, allocation_time, release_time, active_release_time, duration, active_duration,
    allocation_allocated, allocation_reserved, allocation_active, release_allocated, release_reserved,
    release_active, stream
from final
order by id
