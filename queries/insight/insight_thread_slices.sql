-- title: Insight thread slices
-- description: Every slice of one thread by depth then start, names and categories as
--     string ids: what the timeline's level-of-detail arrays are built from.
-- param thread_id (integer, required): The thread (thread.id).
-- column id: Identifier of the slice.
-- column ts: Start in ns.
-- column dur: Duration in ns.
-- column depth: Nesting depth, 0 at the top.
-- column name_id: Name (string.id).
-- column category_id: Category (string.id).
select id, ts, dur, depth, name_id, category_id
from _slice
where thread_id = :thread_id
order by depth, ts, dur desc, id
