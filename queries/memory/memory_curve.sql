-- title: Memory curve
-- description: Framework memory of one rank over time, in equal time buckets over the
--     span of its records: the highest allocated and reserved memory in each bucket (a
--     chart's worth of points whatever the number of records).
-- param rank_id (integer, required): The rank.
-- param device_id (integer, default null): Only this device; every device of the rank when null.
-- param buckets (integer, default 200): Number of time buckets.
-- column rank_id: Rank.
-- column device_id: NPU device id.
-- column bucket: Bucket number, 0 = earliest.
-- column start_ns: Start of the bucket in ns.
-- column samples: Number of records in the bucket.
-- column max_allocated_bytes: Highest total allocated memory in the bucket, in bytes.
-- column max_reserved_bytes: Highest total reserved memory in the bucket, in bytes.
with records as (
    select rank_id, device_id, ts, total_allocated_bytes, total_reserved_bytes
    from memory_record
    where rank_id = :rank_id and (:device_id is null or device_id = :device_id)
),

span as (
    select min(ts) as first_ts, max(ts) - min(ts) + 1 as width from records
),

bucketed as (
    select
        r.rank_id,
        r.device_id,
        cast(floor(1.0 * (r.ts - s.first_ts) * :buckets / s.width) as integer) as bucket,
        s.first_ts,
        s.width,
        r.total_allocated_bytes,
        r.total_reserved_bytes
    from records as r
    cross join span as s
),

final as (
    select
        rank_id,
        device_id,
        bucket,
        first_ts + cast(floor(1.0 * bucket * width / :buckets) as integer) as start_ns,
        count(*) as samples,
        max(total_allocated_bytes) as max_allocated_bytes,
        max(total_reserved_bytes) as max_reserved_bytes
    from bucketed
    group by rank_id, device_id, bucket, first_ts, width
)

select rank_id, device_id, bucket, start_ns, samples, max_allocated_bytes, max_reserved_bytes
from final
order by rank_id, device_id, bucket
