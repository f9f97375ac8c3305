-- Helper (included by framework_op_summary, not a query itself): per run,
-- rank and name of a CTE named items (run_id, rank_id, name, dur): count, total, mean rounded to
-- the ns, max; the including query declares the columns run_id, rank_id, name, count, total_ns,
-- avg_ns, max_ns.
final as (
    select
        run_id,
        rank_id,
        name,
        count(*) as count,
        sum(dur) as total_ns,
        cast(round(avg(dur)) as integer) as avg_ns,
        max(dur) as max_ns
    from items
    group by run_id, rank_id, name
)

select run_id, rank_id, name, count, total_ns, avg_ns, max_ns
from final
order by run_id, rank_id, total_ns desc, name
