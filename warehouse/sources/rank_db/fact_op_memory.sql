-- reads: OP_MEMORY
-- OP_MEMORY with the operator name as text.
INSERT INTO op_memory (
    source_id, source_row, rank_id, device_id, name, size_bytes, allocation_ts, release_ts,
    active_release_ts, dur, active_dur, allocation_total_allocated_bytes, allocation_total_reserved_bytes,
    allocation_total_active_bytes, release_total_allocated_bytes, release_total_reserved_bytes,
    release_total_active_bytes, stream_ptr
)
SELECT
    :source_id, o._row, :rank_id, o.deviceId, s.value, o.size, CAST(o.allocationTime AS INTEGER),
    CAST(o.releaseTime AS INTEGER), CAST(o.activeReleaseTime AS INTEGER), o.duration, o.activeDuration,
    o.allocationTotalAllocated, o.allocationTotalReserved, o.allocationTotalActive,
    o.releaseTotalAllocated, o.releaseTotalReserved, o.releaseTotalActive, o.streamPtr
FROM in_OP_MEMORY AS o
LEFT JOIN in_STRING_IDS AS s ON s.id = o.name;
