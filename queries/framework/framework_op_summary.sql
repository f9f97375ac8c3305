-- title: Framework operator summary
-- description: Time of the framework (torch_npu) API calls per rank and name: how often
--     each ran and how long it took on the host.
-- param rank_id (integer, default null): Only this rank; every rank when null.
-- param type (text, default 'op', one of op|queue|mstx|python_trace): Kind of framework row.
-- column rank_id: Rank.
-- column name: API name (e.g. aten::matmul).
-- column count: Number of calls.
-- column total_ns: Summed duration in ns.
-- column avg_ns: Mean duration in ns (rounded).
-- column max_ns: Longest call in ns.
with calls as (
    select rank_id, name, dur
    from pytorch_api
    where type = :type and (:rank_id is null or rank_id = :rank_id)
),

final as (
    select
        rank_id,
        name,
        count(*) as count,
        sum(dur) as total_ns,
        cast(round(avg(dur)) as integer) as avg_ns,
        max(dur) as max_ns
    from calls
    group by rank_id, name
)

select rank_id, name, count, total_ns, avg_ns, max_ns
from final
order by rank_id, total_ns desc, name
