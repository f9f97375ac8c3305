-- title: Insight slice at
-- description: The slice of a thread at a depth that covers a time (a click on the
--     timeline), the latest-starting one when several do. The search starts at
--     ts - thread.max_dur so SQLite walks the (thread_id, ts, dur) index over a short range.
-- param thread_id (integer, required): The thread (thread.id).
-- param depth (integer, required): Nesting depth of the row clicked.
-- param ts (integer, required): Time clicked, in ns.
-- column id: Identifier of the slice.
with bounds as (
    select max_dur from thread where id = :thread_id
),

final as (
    select s.id, s.ts
    from _slice as s
    where s.thread_id = :thread_id
        and s.ts >= :ts - (select max_dur from bounds)
        and s.ts <= :ts
        and s.ts + s.dur >= :ts
        and s.depth = :depth
)

select id
from final
order by ts desc, id
limit 1
