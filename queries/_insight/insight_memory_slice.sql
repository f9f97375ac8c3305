-- title: Insight memory slice
-- description: The slice of a rank's timeline an operator memory block was allocated in, as
--     MindStudio Insight's Memory/find/slice finds it (server/src/modules/timeline/core/dataEngine
--     PythonApiRepo QuerySliceByTimepointAndName): named as the block's operator, covering the
--     allocation time, the latest-starting one when several do. Only the inputs answering the
--     rank's timeline (answer_source, fact timeline).
-- param run_id (integer, required): The run (run.run_id).
-- param rank_id (integer, required): The rank.
-- param slice_name (text, required): Name of the operator (the slice sought).
-- param ts (integer, required): Allocation time in ns.
-- column id: Identifier of the slice.
-- column thread_id: Thread of the slice.
-- column process_id: Process of the thread.
-- column ts: Start in ns.
-- column dur: Duration in ns.
-- column depth: Nesting depth, 0 at the top.
with lanes as (
    select t.id as thread_id, t.process_id
    from thread as t
    join answer_source as a on a.source_id = t.source_id and a.fact = 'timeline'
    where a.run_id = :run_id and a.rank_id = :rank_id
),

final as (
    select s.id, s.thread_id, l.process_id, s.ts, s.dur, s.depth
    from slice as s
    join lanes as l on l.thread_id = s.thread_id
    where s.name = :slice_name and s.ts <= :ts and s.ts + s.dur >= :ts
)

select id, thread_id, process_id, ts, dur, depth
from final
order by ts desc, id
limit 1
