-- title: Operators holding the most memory
-- description: Per rank and operator name, the device memory its allocations took
--     (OP_MEMORY): how many, how large in total and at most, and how long they were held.
-- param rank_id (integer, default null): Only this rank; every rank when null.
-- param limit (integer, default 20): How many operators to return.
-- column rank_id: Rank.
-- column name: Operator name.
-- column allocations: Number of allocations.
-- column total_bytes: Summed allocation size in bytes.
-- column max_bytes: Largest allocation in bytes.
-- column avg_dur_ns: Mean time an allocation was held, in ns (rounded).
-- column max_dur_ns: Longest time an allocation was held, in ns.
with allocations as (
    select rank_id, name, size_bytes, dur
    from op_memory
    where :rank_id is null or rank_id = :rank_id
),

final as (
    select
        rank_id,
        name,
        count(*) as allocations,
        sum(size_bytes) as total_bytes,
        max(size_bytes) as max_bytes,
        cast(round(avg(dur)) as integer) as avg_dur_ns,
        max(dur) as max_dur_ns
    from allocations
    group by rank_id, name
)

select rank_id, name, allocations, total_bytes, max_bytes, avg_dur_ns, max_dur_ns
from final
order by total_bytes desc, rank_id, name
limit :limit
