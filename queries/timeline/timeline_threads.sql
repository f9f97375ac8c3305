-- title: Timeline threads
-- description: The threads (tracks) of the timeline with their time span and longest
--     slice. The span comes from the (thread_id, ts, dur) index: the first start, and the
--     last end searched only among slices starting after the last start minus max_dur.
-- param run_id (integer, default null): Only the threads of this run; every run when null.
-- param process_id (integer, default null): Only the threads of this process; every process when null.
-- column run_id: Run the thread belongs to.
-- column thread_id: Identifier of the thread (thread.id).
-- column process_id: Process the thread belongs to.
-- column rank_id: Rank of the process, when known.
-- column pid: Process id as the input writes it.
-- column tid: Thread id as the input writes it.
-- column name: Thread name from the metadata, when given.
-- column sort_index: Display order from the metadata, when given.
-- column max_dur: Longest slice on the thread, in ns.
-- column start_ns: Start of the thread's first slice, in ns (null without slices).
-- column end_ns: End of the thread's last-ending slice, in ns (null without slices).
with threads as (
    select
        t.id,
        s.run_id,
        t.process_id,
        p.rank_id,
        p.pid,
        t.tid,
        t.name,
        t.sort_index,
        t.max_dur,
        (select min(s.ts) from _slice as s where s.thread_id = t.id) as start_ns,
        (select max(s.ts) from _slice as s where s.thread_id = t.id) as last_ts
    from thread as t
    join process as p on p.id = t.process_id
    join source as s on s.id = t.source_id
    where (:run_id is null or s.run_id = :run_id) and (:process_id is null or t.process_id = :process_id)
),

final as (
    select
        t.run_id,
        t.id as thread_id,
        t.process_id,
        t.rank_id,
        t.pid,
        t.tid,
        t.name,
        t.sort_index,
        t.max_dur,
        t.start_ns,
        (
            select max(s.ts + s.dur) from _slice as s
            where s.thread_id = t.id and s.ts >= t.last_ts - t.max_dur
        ) as end_ns
    from threads as t
)

select run_id, thread_id, process_id, rank_id, pid, tid, name, sort_index, max_dur, start_ns, end_ns
from final
order by run_id, process_id, sort_index, tid, thread_id
