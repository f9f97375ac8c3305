-- title: Operator inter-core load
-- description: Cycles, throughput and L2 hit rate of every sub-core of one operator profile
--     (block 0x0C), with each sub-core's cycles against the busiest sub-core of its type:
--     a low ratio on some cores shows the work was split unevenly.
-- param source_id (integer, required): The operator profile (op_runs.source_id).
-- column core_id: Core (block) id.
-- column subcore_type: cube or vector.
-- column subcore_id: Sub-core id within its type.
-- column cycles: Cycles the sub-core took.
-- column throughput: Bytes the sub-core moved, as given.
-- column l2cache_hit_rate: L2 cache hit rate in percent.
-- column cycles_to_max: cycles / the highest cycles among sub-cores of the same type (0-1).
with cores as (
    select core_id, subcore_type, subcore_id, cycles, throughput, l2cache_hit_rate
    from core_load
    where source_id = :source_id
),

final as (
    select
        core_id, subcore_type, subcore_id, cycles, throughput, l2cache_hit_rate,
        1.0 * cycles / nullif(max(cycles) over (partition by subcore_type), 0) as cycles_to_max
    from cores
)

select core_id, subcore_type, subcore_id, cycles, throughput, l2cache_hit_rate, cycles_to_max
from final
order by core_id, subcore_type, subcore_id
