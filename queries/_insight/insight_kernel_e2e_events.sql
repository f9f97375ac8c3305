-- title: Insight kernel E2E events
-- description: The events of one rank db input from which MindStudio Insight's "Kernel E2E Time" table
--     recovers each kernel's dispatch chain (unit/kernelE2ETime; Ascend/msinsight DbKernelE2ERepo.cpp):
--     framework calls named Enqueue..., Dequeue..., <built-in..., aten::..., npu::... or vllm::...
--     (PYTORCH_API, event_id its row), CANN calls whose name holds aclopCompileAndExecute or starts with
--     aclnn or launch (CANN_API, event_id its connection id), and device tasks that a framework or CANN
--     call leads to (TASK rows bound to them by a connection id, event_id its row); one row per connection
--     id binding the event (a framework call's through CONNECTION_IDS, as its flows carry them).
--     Names are matched in any case, as the real server's LIKE does. With a range, only events
--     overlapping it.
-- param source_id (integer, required): The rank db (source.id) answering the rank's timeline.
-- param start_ns (integer, default null): Only events ending at or after this time (ns); with end_ns.
-- param end_ns (integer, default null): Only events starting at or before this time (ns); with start_ns.
-- column role: 'python' (PYTORCH_API), 'cann' (CANN_API) or 'task' (TASK).
-- column event_id: The real server's id of the event (see the description).
-- column name: Event name (a task's: its kernel's name, else its task type).
-- column ts: Start in ns.
-- column end_ns: End in ns.
-- column global_tid: Host thread of a call (pid << 32 | tid); NULL for a task.
-- column api_type: A call's API type (PYTORCH_API / CANN_API type, e.g. trace, queue, node); NULL for a task.
-- column connection_id: A connection id binding the event (NULL for none).
-- column slice_id: The event's slice (slice.id).
-- column process_id: The slice's process (process.id).
-- column thread_id: The slice's thread (thread.id).
with
python_calls as (
    select a.source_row as event_id, a.name, a.ts, a.ts + a.dur as end_ns, a.global_tid, a.type as api_type,
        a.slice_id
    from pytorch_api as a
    where a.source_id = :source_id
        and (a.name like 'Enqueue%' or a.name like 'Dequeue%' or a.name like '<built-in%' or a.name like 'aten::%'
             or a.name like 'npu::%' or a.name like 'vllm::%')
        and (:start_ns is null or (a.ts + a.dur >= :start_ns and a.ts <= :end_ns))
),

python_keys as (
    select p.slice_id, cast(f.flow_key as integer) as connection_id
    from python_calls as p
    join flow as f on f.slice_out = p.slice_id and f.category = 'CONNECTION_IDS'
    union
    select p.slice_id, cast(f.flow_key as integer) as connection_id
    from python_calls as p
    join flow as f on f.slice_in = p.slice_id and f.category = 'CONNECTION_IDS'
),

cann_calls as (
    select c.connection_id as event_id, c.name, c.ts, c.ts + c.dur as end_ns, c.global_tid, c.type as api_type,
        c.slice_id
    from cann_api as c
    where c.source_id = :source_id
        and (c.name like '%aclopCompileAndExecute%' or c.name like 'aclnn%' or c.name = 'launch'
             or c.name = 'Node@launch' or c.name like 'launch%')
        and (:start_ns is null or (c.ts + c.dur >= :start_ns and c.ts <= :end_ns))
),

bound_tasks as (
    select distinct f.slice_in as slice_id
    from flow as f
    where f.source_id = :source_id and f.name in ('torch_to_npu', 'host_to_device')
),

tasks as (
    select s.source_row as event_id, coalesce(k.name, s.category) as name, s.ts, s.ts + s.dur as end_ns,
        s.id as slice_id, cast(json_extract(s.args, '$.connection_id') as integer) as connection_id
    from bound_tasks as b
    join slice as s on s.id = b.slice_id
    left join kernel as k on k.slice_id = s.id
    where :start_ns is null or (s.ts + s.dur >= :start_ns and s.ts <= :end_ns)
),

events as (
    select 'python' as role, p.event_id, p.name, p.ts, p.end_ns, p.global_tid, p.api_type, k.connection_id,
        p.slice_id
    from python_calls as p
    left join python_keys as k on k.slice_id = p.slice_id
    union all
    select 'cann', event_id, name, ts, end_ns, global_tid, api_type, event_id, slice_id
    from cann_calls
    union all
    select 'task', event_id, name, ts, end_ns, null, null, connection_id, slice_id
    from tasks
),

final as (
    select e.role, e.event_id, e.name, e.ts, e.end_ns, e.global_tid, e.api_type, e.connection_id, e.slice_id,
        t.process_id, t.id as thread_id
    from events as e
    join slice as s on s.id = e.slice_id
    join thread as t on t.id = s.thread_id
)

select role, event_id, name, ts, end_ns, global_tid, api_type, connection_id, slice_id, process_id, thread_id
from final
order by role, global_tid, ts, event_id, connection_id
