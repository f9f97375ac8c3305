-- title: Insight kernel E2E trace flows
-- description: The arrows of one trace input that bind a dispatch chain's steps for MindStudio Insight's
--     "Kernel E2E Time" (unit/kernelE2ETime; Ascend/msinsight TextKernelE2ERepo.cpp QueryFlows): the
--     trace's flows of category async_task_queue (enqueue to dequeue), async_npu (framework operator to
--     device task) and HostToDevice (CANN call to device task), one per flow id (its first end, as the real
--     server takes the first end point), each end with its slice. With a range, only the flows with an
--     end inside it (any of a flow id's ends).
-- param source_id (integer, required): The trace (source.id) answering the rank's timeline.
-- param start_ns (integer, default null): Only flows with an end at or after this time (ns); with end_ns.
-- param end_ns (integer, default null): Only flows with an end at or before this time (ns); with start_ns.
-- column category: The flow's category.
-- column from_slice: The slice the flow leaves (slice.id).
-- column from_name: Its name.
-- column from_ts: Its start in ns.
-- column from_end: Its end in ns.
-- column from_process: Its process (process.id).
-- column from_thread: Its thread (thread.id).
-- column to_slice: The slice the flow reaches (slice.id).
-- column to_name: Its name.
-- column to_ts: Its start in ns.
-- column to_end: Its end in ns.
-- column to_process: Its process (process.id).
-- column to_thread: Its thread (thread.id).
with
flows as (
    select f.id, f.category, f.flow_key, f.slice_out, f.slice_in, f.ts_out, f.ts_in,
        row_number() over (partition by f.category, f.flow_key order by f.ts_in, f.id) as nth
    from flow as f
    where f.source_id = :source_id and f.category in ('async_task_queue', 'async_npu', 'HostToDevice')
        and f.slice_out is not null and f.slice_in is not null
),

seeded as (
    select distinct category, flow_key
    from flows
    where :start_ns is null or ts_out between :start_ns and :end_ns or ts_in between :start_ns and :end_ns
),

final as (
    select f.category, f.flow_key, f.id,
        o.id as from_slice, o.name as from_name, o.ts as from_ts, o.ts + o.dur as from_end,
        ot.process_id as from_process, o.thread_id as from_thread,
        i.id as to_slice, i.name as to_name, i.ts as to_ts, i.ts + i.dur as to_end,
        it.process_id as to_process, i.thread_id as to_thread
    from flows as f
    join seeded as d on d.category = f.category and d.flow_key = f.flow_key
    join slice as o on o.id = f.slice_out
    join thread as ot on ot.id = o.thread_id
    join slice as i on i.id = f.slice_in
    join thread as it on it.id = i.thread_id
    where f.nth = 1
)

select category, from_slice, from_name, from_ts, from_end, from_process, from_thread,
    to_slice, to_name, to_ts, to_end, to_process, to_thread
from final
order by flow_key, category, id
