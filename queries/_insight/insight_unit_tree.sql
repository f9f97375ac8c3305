-- title: Insight unit tree
-- description: The processes and threads of one input's timeline, in display order, with each
--     thread's depth count: the process and thread lanes MindStudio Insight's parse/success event
--     carries (Ascend/msinsight TextTraceDatabase.cpp QueryUnitsMetadata). A process without a
--     thread (counters only) is left out: it has no slice lane.
-- param source_id (integer, required): The input (source.id).
-- column process_id: The process (process.id).
-- column pid: Process id as the input writes it.
-- column process_name: Process name, when given.
-- column labels: Process labels, when given.
-- column thread_id: The thread (thread.id).
-- column tid: Thread id as the input writes it.
-- column thread_name: Thread name, when given.
-- column depths: Nesting depths the thread's slices use (deepest depth + 1; 0 without a slice).
with depths as (
    select s.thread_id, max(s.depth) + 1 as depths
    from _slice as s
    join thread as t on t.id = s.thread_id
    where t.source_id = :source_id
    group by s.thread_id
),

final as (
    select
        p.id as process_id, p.pid, p.name as process_name, p.labels, p.sort_index as process_order,
        t.id as thread_id, t.tid, t.name as thread_name, t.sort_index as thread_order,
        coalesce(d.depths, 0) as depths
    from process as p
    join thread as t on t.process_id = p.id
    left join depths as d on d.thread_id = t.id
    where p.source_id = :source_id
)

select process_id, pid, process_name, labels, thread_id, tid, thread_name, depths
from final
order by coalesce(process_order, process_id), process_id, coalesce(thread_order, thread_id), thread_id
