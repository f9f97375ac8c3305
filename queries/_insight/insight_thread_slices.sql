-- title: Insight thread slices
-- description: Every slice of one thread in the order of the (thread_id, ts, dur DESC) index (no
--     sort step), names, categories and cnames as string ids: what the timeline's level-of-detail
--     arrays are built from.
-- param thread_id (integer, required): The thread (thread.id).
-- column id: Identifier of the slice.
-- column ts: Start in ns.
-- column dur: Duration in ns.
-- column depth: Nesting depth, 0 at the top.
-- column name_id: Name (string.id), 0 when it has none.
-- column category_id: Category (string.id), 0 when it has none.
-- column cname_id: The input's own cname (string.id), 0 when it has none.
select
    id, ts, dur, depth, coalesce(name_id, 0) as name_id, coalesce(category_id, 0) as category_id,
    coalesce(cname_id, 0) as cname_id
from _slice
where thread_id = :thread_id
order by ts, dur desc, id
