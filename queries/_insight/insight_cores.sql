-- title: Insight cores
-- description: The compute cores an operator profile reports (Cores of the hot-spot blocks),
--     in the order written.
-- param source_id (integer, required): The operator profile (source.id).
-- column core: Core name, e.g. core0.cubecore0.
with cores as (
    select core, core_index from code_line where source_id = :source_id and core is not null
    union
    select core, core_index from instruction where source_id = :source_id and core is not null
),

final as (
    select core, min(core_index) as position
    from cores
    group by core
)

select core
from final
order by position, core
