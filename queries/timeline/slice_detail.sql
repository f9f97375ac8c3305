-- title: Slice detail
-- description: Everything about one slice: its times, names, args, parent, thread,
--     process and rank, and the input row it came from.
-- param slice_id (integer, required): The slice (slice.id).
-- column id: Identifier of the slice.
-- column ts: Start in ns.
-- column dur: Duration in ns.
-- column end_ns: End in ns (ts + dur).
-- column name: Slice name.
-- column category: Slice category.
-- column depth: Nesting depth, 0 at the top.
-- column parent_id: Enclosing slice, null at depth 0.
-- column parent_name: Name of the enclosing slice.
-- column child_count: Number of slices directly inside this one.
-- column thread_id: Thread of the slice.
-- column tid: Thread id as the input writes it.
-- column thread_name: Thread name.
-- column process_id: Process of the thread.
-- column pid: Process id as the input writes it.
-- column process_name: Process name.
-- column rank_id: Rank of the process, when known.
-- column args: The event's args as JSON text.
-- column source_id: Input the slice came from.
-- column source_path: Path of that input.
-- column source_row: Position of the event in the input.
with target as (
    select id, thread_id, ts, dur, name, category, depth, parent_id, args, source_id, source_row
    from slice
    where id = :slice_id
),

children as (
    select count(*) as child_count
    from _slice as s
    join target as t on s.thread_id = t.thread_id
    where s.ts >= t.ts and s.ts <= t.ts + t.dur and s.parent_id = t.id
),

final as (
    select
        t.id,
        t.ts,
        t.dur,
        t.ts + t.dur as end_ns,
        t.name,
        t.category,
        t.depth,
        t.parent_id,
        parent_name.value as parent_name,
        (select child_count from children) as child_count,
        t.thread_id,
        th.tid,
        th.name as thread_name,
        th.process_id,
        p.pid,
        p.name as process_name,
        p.rank_id,
        t.args,
        t.source_id,
        src.path as source_path,
        t.source_row
    from target as t
    join thread as th on th.id = t.thread_id
    join process as p on p.id = th.process_id
    -- _slice, not the slice view: on the right of a LEFT JOIN the view would be built whole
    left join _slice as parent on parent.id = t.parent_id
    left join string as parent_name on parent_name.id = parent.name_id
    left join source as src on src.id = t.source_id
)

select
    id, ts, dur, end_ns, name, category, depth, parent_id, parent_name, child_count,
    thread_id, tid, thread_name, process_id, pid, process_name, rank_id,
    args, source_id, source_path, source_row
from final
