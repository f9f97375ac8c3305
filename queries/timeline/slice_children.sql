-- title: Slice children
-- description: The slices directly inside one slice, in time order, each with its own
--     number of children. Found through the (thread_id, ts) index within the parent's span.
-- param slice_id (integer, required): The parent slice (slice.id).
-- column id: Identifier of the child slice.
-- column ts: Start in ns.
-- column dur: Duration in ns.
-- column name: Slice name.
-- column category: Slice category.
-- column depth: Nesting depth.
-- column child_count: Number of slices directly inside the child.
with parent as (
    select id, thread_id, ts, dur from _slice where id = :slice_id
),

children as (
    select s.id, s.thread_id, s.ts, s.dur, s.name_id, s.category_id, s.depth
    from _slice as s
    join parent as p on s.thread_id = p.thread_id
    where s.ts >= p.ts and s.ts <= p.ts + p.dur and s.parent_id = p.id
),

final as (
    select
        c.id,
        c.ts,
        c.dur,
        n.value as name,
        k.value as category,
        c.depth,
        (
            select count(*) from _slice as g
            where g.thread_id = c.thread_id and g.ts >= c.ts and g.ts <= c.ts + c.dur and g.parent_id = c.id
        ) as child_count
    from children as c
    left join string as n on n.id = c.name_id
    left join string as k on k.id = c.category_id
)

select id, ts, dur, name, category, depth, child_count
from final
order by ts, id
