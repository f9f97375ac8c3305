-- title: Insight thread events
-- description: The slices of one timeline thread, in time order, with the thread's name and ids and its
--     process's id as the input writes them: the rows of MindStudio Insight's Events
--     View for a lane (unit/eventView; Ascend/msinsight TraceDatabaseHelper.cpp GetTextEventViewSql,
--     GetSql4QueryEventsViewDetailsInText). Only slices whose name holds :search (any case) and,
--     with a range, those overlapping it.
-- param thread_id (integer, required): The thread (thread.id).
-- param search (text, default ''): Only slices whose name holds this text, any case.
-- param start_ns (integer, default null): Only slices ending at or after this time (ns); with end_ns.
-- param end_ns (integer, default null): Only slices starting at or before this time (ns); with start_ns.
-- column id: Identifier of the slice.
-- column name: Slice name.
-- column ts: Start in ns.
-- column dur: Duration in ns.
-- column depth: Nesting depth, 0 at the top.
-- column tid: Thread id as the input writes it.
-- column thread_name: Thread name, when given.
-- column pid: Process id as the input writes it.
with lane as (
    select t.id as thread_id, t.tid, t.name as thread_name, p.pid
    from thread as t
    join process as p on p.id = t.process_id
    where t.id = :thread_id
),

final as (
    select s.id, n.value as name, s.ts, s.dur, s.depth, l.tid, l.thread_name, l.pid
    from lane as l
    cross join _slice as s
    join string as n on n.id = s.name_id
    where s.thread_id = l.thread_id
        and (:search = '' or instr(lower(n.value), lower(:search)) > 0)
        and (:start_ns is null or (s.ts + s.dur >= :start_ns and s.ts <= :end_ns))
)

select id, name, ts, dur, depth, tid, thread_name, pid
from final
order by ts, id
