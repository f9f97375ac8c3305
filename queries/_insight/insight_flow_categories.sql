-- title: Insight flow categories
-- description: The categories of the arrows starting on one input's timeline (an arrow without a
--     category goes by its name, as unit/flows groups it), in name order: the kinds of arrows
--     MindStudio Insight's timeline offers to draw (flow/categoryList). Read from the input's
--     threads and their slices, so the work follows the input, not the warehouse.
-- param source_id (integer, required): The input (source.id).
-- column category: An arrow category.
with lanes as (
    select id as thread_id
    from thread
    where source_id = :source_id
),

final as (
    select distinct coalesce(f.category, f.name) as category
    from lanes as l
    cross join _slice as s
    join flow as f on f.slice_out = s.id
    where s.thread_id = l.thread_id and coalesce(f.category, f.name) is not null
)

select category
from final
order by category
