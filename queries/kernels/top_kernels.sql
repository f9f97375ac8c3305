-- title: Top kernels
-- description: The device kernels that took the most time, grouped by name and class,
--     with their share of all kernel time in scope (one rank, or every rank).
-- param rank_id (integer, default null): Only this rank; every rank when null.
-- param limit (integer, default 20): How many kernels to return.
-- column name: Kernel name.
-- column op_class: Class (seed 004): aic, aiv, mix_cv, mix_comm_aiv, communication or aicpu.
-- column count: Number of executions.
-- column total_ns: Summed duration in ns.
-- column avg_ns: Mean duration in ns (rounded).
-- column max_ns: Longest execution in ns.
-- column ratio: total_ns as a fraction of all kernel time in scope (0-1).
with kernels as (
    select name, op_class, dur
    from kernel
    where :rank_id is null or rank_id = :rank_id
),

grouped as (
    select
        name,
        op_class,
        count(*) as count,
        sum(dur) as total_ns,
        cast(round(avg(dur)) as integer) as avg_ns,
        max(dur) as max_ns
    from kernels
    group by name, op_class
),

final as (
    select
        name, op_class, count, total_ns, avg_ns, max_ns,
        1.0 * total_ns / nullif(sum(total_ns) over (), 0) as ratio
    from grouped
)

select name, op_class, count, total_ns, avg_ns, max_ns, ratio
from final
order by total_ns desc, name
limit :limit
