-- title: Insight memory components
-- description: The CANN components of one rank whose reserved memory peaked at 100 MB or more, as
--     MindStudio Insight's component table lists them (server/src/modules/memory
--     DbMemoryDataBase QueryComponentDetail: npu_module_mem): each one's peak in MB (2 decimals)
--     and the first time it was reached, in ms from the rank's time zero (3 decimals). One input
--     per rank: its database export when it has one, else npu_module_mem.csv.
-- param run_id (integer, required): The run (run.run_id).
-- param rank_id (integer, required): The rank.
-- param zero_ns (integer, required): Time zero of the rank's card (its first slice start), in ns.
-- column component: CANN component (module) name.
-- column total_reserved: Peak reserved memory in MB.
-- column time_ms: First time of the peak in ms after the time zero.
with inputs as (
    select s.id, s.kind
    from source as s
    where s.run_id = :run_id and s.rank_id = :rank_id and s.status = 'ok'
        and exists (select 1 from npu_module_mem as n where n.source_id = s.id)
),

chosen as (
    select id
    from inputs
    order by case when kind = 'rank_db' then 0 else 1 end, id
    limit 1
),

records as (
    select n.component, n.ts, n.total_reserved_bytes
    from npu_module_mem as n
    where n.source_id = (select id from chosen)
),

peaks as (
    select component, max(total_reserved_bytes) as peak_bytes
    from records
    group by component
    having max(total_reserved_bytes) >= 104857600
),

final as (
    select p.component, round(p.peak_bytes / 1048576.0, 2) as total_reserved, min(r.ts) as peak_ts
    from peaks as p
    join records as r on r.component = p.component and r.total_reserved_bytes = p.peak_bytes
    group by p.component, p.peak_bytes
)

select component, total_reserved, round((peak_ts - :zero_ns) / 1000000.0, 3) as time_ms
from final
order by component
