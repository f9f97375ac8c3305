-- title: Memory peak
-- description: Per rank and device, the highest memory the framework allocated and
--     reserved (MEMORY_RECORD), and when allocation first reached its peak.
-- param rank_id (integer, default null): Only this rank; every rank when null.
-- column rank_id: Rank.
-- column device_id: NPU device id.
-- column peak_allocated_bytes: Highest total allocated memory, in bytes.
-- column peak_reserved_bytes: Highest total reserved memory, in bytes.
-- column ts_of_peak: First time total allocated reached its peak, in ns.
with records as (
    select rank_id, device_id, ts, total_allocated_bytes, total_reserved_bytes
    from memory_record
    where :rank_id is null or rank_id = :rank_id
),

peaks as (
    select
        rank_id,
        device_id,
        max(total_allocated_bytes) as peak_allocated_bytes,
        max(total_reserved_bytes) as peak_reserved_bytes
    from records
    group by rank_id, device_id
),

final as (
    select
        p.rank_id,
        p.device_id,
        p.peak_allocated_bytes,
        p.peak_reserved_bytes,
        min(r.ts) as ts_of_peak
    from peaks as p
    join records as r
        on r.rank_id = p.rank_id and r.device_id = p.device_id
        and r.total_allocated_bytes = p.peak_allocated_bytes
    group by p.rank_id, p.device_id, p.peak_allocated_bytes, p.peak_reserved_bytes
)

select rank_id, device_id, peak_allocated_bytes, peak_reserved_bytes, ts_of_peak
from final
order by rank_id, device_id
