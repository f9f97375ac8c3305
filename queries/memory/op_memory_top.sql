-- title: Operators holding the most memory
-- description: Per run, rank and operator name, the device memory its allocations took
--     (OP_MEMORY): how many, how large in total and at most, and how long they were held.
--     Only the input that answers the rank's operator memory (answer_source, fact op_memory):
--     a rank exported both as a database and as text is read once.
-- param run_id (integer, default null): Only this run; every run when null.
-- param rank_id (integer, default null): Only this rank; every rank when null.
-- param limit (integer, default 20): How many operators to return.
-- column run_id: Run.
-- column rank_id: Rank.
-- column name: Operator name.
-- column allocations: Number of allocations.
-- column total_bytes: Summed allocation size in bytes.
-- column max_bytes: Largest allocation in bytes.
-- column avg_dur_ns: Mean time an allocation was held, in ns (rounded).
-- column max_dur_ns: Longest time an allocation was held, in ns.
with allocations as (
    select a.run_id, o.rank_id, o.name, o.size_bytes, o.dur
    from op_memory as o
    join answer_source as a on a.source_id = o.source_id and a.fact = 'op_memory'
    where (:run_id is null or a.run_id = :run_id) and (:rank_id is null or o.rank_id = :rank_id)
),

final as (
    select
        run_id,
        rank_id,
        name,
        count(*) as allocations,
        sum(size_bytes) as total_bytes,
        max(size_bytes) as max_bytes,
        cast(round(avg(dur)) as integer) as avg_dur_ns,
        max(dur) as max_dur_ns
    from allocations
    group by run_id, rank_id, name
)

select run_id, rank_id, name, allocations, total_bytes, max_bytes, avg_dur_ns, max_dur_ns
from final
order by total_bytes desc, run_id, rank_id, name
limit :limit
