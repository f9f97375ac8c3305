-- title: Timeline slices
-- description: The slices of one thread overlapping a time window [start, end), instants
--     inside it included. The search starts at start - thread.max_dur so that SQLite walks
--     the (thread_id, ts, dur) index over the window only.
-- param thread_id (integer, required): Thread to show (thread.id).
-- param start (integer, required): Window start in ns.
-- param end (integer, required): Window end in ns (exclusive).
-- param min_dur (integer, default 0): Leave out slices shorter than this many ns.
-- column id: Identifier of the slice.
-- column ts: Start in ns.
-- column dur: Duration in ns.
-- column name: Slice name.
-- column category: Slice category.
-- column depth: Nesting depth, 0 at the top.
-- column parent_id: Enclosing slice, null at depth 0.
with bounds as (
    select max_dur from thread where id = :thread_id
),

final as (
    select s.id, s.ts, s.dur, s.name_id, s.category_id, s.depth, s.parent_id
    from _slice as s
    where s.thread_id = :thread_id
        and s.ts >= :start - (select max_dur from bounds)
        and s.ts < :end
        and (s.ts + s.dur > :start or s.ts >= :start)
        and s.dur >= :min_dur
)

select
    final.id,
    final.ts,
    final.dur,
    n.value as name,
    c.value as category,
    final.depth,
    final.parent_id
from final
left join string as n on n.id = final.name_id
left join string as c on c.id = final.category_id
order by final.ts, final.depth
