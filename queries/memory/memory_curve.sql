-- title: Memory curve
-- description: Memory of one rank over time, one series per profiler component (APP: the
--     whole process, as the driver sees it; PTA: torch_npu's caching allocator; GE: the graph
--     engine; PTA+GE: the two together), never mixed: in equal time buckets over the span of
--     the rank's records in its run (the same buckets for every component, so the series line
--     up), the highest allocated and reserved memory of each component in each bucket (a
--     chart's worth of points whatever the number of records). Only the input that answers
--     the rank's memory (answer_source, fact memory): a rank exported both as a database and
--     as text is read once.
-- param run_id (integer, default null): Only this run; every run when null.
-- param rank_id (integer, required): The rank.
-- param component (text, default null): Only this component (APP, PTA, GE, PTA+GE); every component when null.
-- param device_id (integer, default null): Only this device; every device of the rank when null.
-- param buckets (integer, default 200): Number of time buckets.
-- column run_id: Run.
-- column rank_id: Rank.
-- column device_id: NPU device id.
-- column component: Profiler component of the series: APP, PTA, GE or PTA+GE.
-- column bucket: Bucket number, 0 = earliest.
-- column start_ns: Start of the bucket in ns.
-- column samples: Number of the component's records in the bucket.
-- column max_allocated_bytes: Highest total allocated memory of the component in the bucket, in bytes (NULL for APP, which records only reserved memory).
-- column max_reserved_bytes: Highest total reserved memory of the component in the bucket, in bytes.
with records as (
    select
        a.run_id, m.rank_id, m.device_id, m.component, m.ts, m.total_allocated_bytes, m.total_reserved_bytes
    from memory_record as m
    join answer_source as a on a.source_id = m.source_id and a.fact = 'memory'
    where m.rank_id = :rank_id
        and (:run_id is null or a.run_id = :run_id)
        and (:component is null or m.component = :component)
        and (:device_id is null or m.device_id = :device_id)
),

span as (
    select run_id, min(ts) as first_ts, max(ts) - min(ts) + 1 as width
    from records
    group by run_id
),

bucketed as (
    select
        r.run_id,
        r.rank_id,
        r.device_id,
        r.component,
        cast(floor(1.0 * (r.ts - s.first_ts) * :buckets / s.width) as integer) as bucket,
        s.first_ts,
        s.width,
        r.total_allocated_bytes,
        r.total_reserved_bytes
    from records as r
    join span as s on s.run_id = r.run_id
),

final as (
    select
        run_id,
        rank_id,
        device_id,
        component,
        bucket,
        first_ts + cast(floor(1.0 * bucket * width / :buckets) as integer) as start_ns,
        count(*) as samples,
        max(total_allocated_bytes) as max_allocated_bytes,
        max(total_reserved_bytes) as max_reserved_bytes
    from bucketed
    group by run_id, rank_id, device_id, component, bucket, first_ts, width
)

select
    run_id, rank_id, device_id, component, bucket, start_ns, samples, max_allocated_bytes, max_reserved_bytes
from final
order by run_id, rank_id, device_id, component, bucket
