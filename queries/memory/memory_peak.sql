-- title: Memory peak
-- description: Per run, rank, device and profiler component (APP: the whole process, as the
--     driver sees it; PTA: torch_npu's caching allocator; GE: the graph engine; PTA+GE: the
--     two together), the highest memory allocated and reserved, and when each first reached
--     its peak. Components are never mixed (APP records only reserved memory, and PTA+GE
--     already holds PTA and GE). Only the input that answers the rank's memory
--     (answer_source, fact memory): a rank exported both as a database and as text is read once.
-- param run_id (integer, default null): Only this run; every run when null.
-- param rank_id (integer, default null): Only this rank; every rank when null.
-- column run_id: Run.
-- column rank_id: Rank.
-- column device_id: NPU device id.
-- column component: Profiler component: APP, PTA, GE or PTA+GE.
-- column samples: Number of the component's records.
-- column peak_allocated_bytes: Highest total allocated memory, in bytes (NULL for APP, which records only reserved memory).
-- column peak_reserved_bytes: Highest total reserved memory, in bytes.
-- column ts_of_peak: First time total allocated reached its peak, in ns (NULL without allocated records).
-- column ts_of_reserved_peak: First time total reserved reached its peak, in ns.
with records as (
    select
        a.run_id, m.rank_id, m.device_id, m.component, m.ts, m.total_allocated_bytes, m.total_reserved_bytes
    from memory_record as m
    join answer_source as a on a.source_id = m.source_id and a.fact = 'memory'
    where (:run_id is null or a.run_id = :run_id) and (:rank_id is null or m.rank_id = :rank_id)
),

with_peaks as (
    select
        run_id,
        rank_id,
        device_id,
        component,
        ts,
        total_allocated_bytes,
        total_reserved_bytes,
        max(total_allocated_bytes) over (partition by run_id, rank_id, device_id, component) as peak_allocated_bytes,
        max(total_reserved_bytes) over (partition by run_id, rank_id, device_id, component) as peak_reserved_bytes
    from records
),

final as (
    select
        run_id,
        rank_id,
        device_id,
        component,
        count(*) as samples,
        max(peak_allocated_bytes) as peak_allocated_bytes,
        max(peak_reserved_bytes) as peak_reserved_bytes,
        min(case when total_allocated_bytes = peak_allocated_bytes then ts end) as ts_of_peak,
        min(case when total_reserved_bytes = peak_reserved_bytes then ts end) as ts_of_reserved_peak
    from with_peaks
    group by run_id, rank_id, device_id, component
)

select
    run_id, rank_id, device_id, component, samples, peak_allocated_bytes, peak_reserved_bytes, ts_of_peak,
    ts_of_reserved_peak
from final
order by run_id, rank_id, device_id, component
