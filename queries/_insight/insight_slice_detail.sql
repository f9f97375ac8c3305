-- title: Insight slice detail
-- description: One slice with its thread, process, args and self time (its duration less
--     the durations of the slices directly inside it).
-- param slice_id (integer, required): The slice (slice.id).
-- column id: Identifier of the slice.
-- column thread_id: Thread of the slice.
-- column process_id: Process of the thread.
-- column ts: Start in ns.
-- column dur: Duration in ns.
-- column depth: Nesting depth, 0 at the top.
-- column name: Slice name.
-- column category: Slice category.
-- column args: The event's args as JSON text.
-- column self_time: Duration not covered by direct children, in ns.
with target as (
    select s.id, s.thread_id, t.process_id, s.ts, s.dur, s.depth, s.name, s.category, s.args
    from slice as s
    join thread as t on t.id = s.thread_id
    where s.id = :slice_id
),

children as (
    select coalesce(sum(c.dur), 0) as child_dur
    from _slice as c
    join target as t on c.thread_id = t.thread_id
    where c.ts >= t.ts and c.ts <= t.ts + t.dur and c.parent_id = t.id
),

final as (
    select t.id, t.thread_id, t.process_id, t.ts, t.dur, t.depth, t.name, t.category, t.args,
        t.dur - (select child_dur from children) as self_time
    from target as t
)

select id, thread_id, process_id, ts, dur, depth, name, category, args, self_time
from final
