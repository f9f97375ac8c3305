-- title: Communication operators
-- description: HCCL operator time per rank and operator type (COMMUNICATION_OP): how often
--     each collective ran and how long it took.
-- param rank_id (integer, default null): Only this rank; every rank when null.
-- column rank_id: Rank.
-- column name: Operator type, e.g. hcom_allReduce_ (the operator name without its instance suffix).
-- column count: Number of operators.
-- column total_ns: Summed duration in ns.
-- column avg_ns: Mean duration in ns (rounded).
-- column max_ns: Longest operator in ns.
with ops as (
    select rank_id, coalesce(op_type, name) as name, dur
    from communication_op
    where :rank_id is null or rank_id = :rank_id
),

final as (
    select
        rank_id,
        name,
        count(*) as count,
        sum(dur) as total_ns,
        cast(round(avg(dur)) as integer) as avg_ns,
        max(dur) as max_ns
    from ops
    group by rank_id, name
)

select rank_id, name, count, total_ns, avg_ns, max_ns
from final
order by rank_id, total_ns desc, name
