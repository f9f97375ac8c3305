-- title: Communication operators
-- description: HCCL operator time per run, rank and operator type: how often each collective
--     ran and how long it took, from the rank's HCCL operators whichever export holds them
--     (hccl_operator: COMMUNICATION_OP of a rank db, or the HCCL rows of kernel_details.csv,
--     else, for a rank no kernel input answers, the operators its communication summary lists:
--     analysis.db CommAnalyzerTime, else communication.json), summed per rank and type by
--     hccl_total (a rank db staged by ingest --answers-first answers the same as once fully
--     ingested).
-- param run_id (integer, default null): Only this run; every run when null.
-- param rank_id (integer, default null): Only this rank; every rank when null.
-- column run_id: Run.
-- column rank_id: Rank.
-- column name: Operator type, e.g. hcom_allReduce_ (as stated, else the name less its instance suffix).
-- column count: Number of operators.
-- column total_ns: Summed duration in ns.
-- column avg_ns: Mean duration in ns (rounded).
-- column max_ns: Longest operator in ns.
with items as (
    -- per rank and operator type (hccl_total names the type: as stated, else the name less its
    -- instance suffix); the mean over the operators with a duration, as avg(dur) over the rows
    select run_id, rank_id, name, count, timed, total_ns, max_ns
    from hccl_total
    where (:run_id is null or run_id = :run_id) and (:rank_id is null or rank_id = :rank_id)
),

final as (
    select
        run_id,
        rank_id,
        name,
        sum(count) as count,
        sum(total_ns) as total_ns,
        cast(round(1.0 * sum(total_ns) / nullif(sum(timed), 0)) as integer) as avg_ns,
        max(max_ns) as max_ns
    from items
    group by run_id, rank_id, name
)

select run_id, rank_id, name, count, total_ns, avg_ns, max_ns
from final
order by run_id, rank_id, total_ns desc, name
