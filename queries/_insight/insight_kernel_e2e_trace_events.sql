-- title: Insight kernel E2E trace events
-- description: The events of one trace input (a text export's trace_view.json) from which MindStudio
--     Insight's "Kernel E2E Time" table recovers each kernel's dispatch chain (unit/kernelE2ETime;
--     Ascend/msinsight TextKernelE2ERepo.cpp): the slices of the process 'Python' named Enqueue...,
--     Dequeue..., <built-in..., aten::..., npu::... or vllm::..., of the process 'CANN' whose name holds
--     aclopCompileAndExecute or launch or starts with aclnn or AscendCL@aclnn, and every slice of the
--     process 'Ascend Hardware'. Names are matched in any case, as the real server's LIKE does. With a
--     range, only slices overlapping it.
-- param source_id (integer, required): The trace (source.id) answering the rank's timeline.
-- param start_ns (integer, default null): Only slices ending at or after this time (ns); with end_ns.
-- param end_ns (integer, default null): Only slices starting at or before this time (ns); with start_ns.
-- column role: 'python', 'cann' or 'task' (the slice's process: Python, CANN, Ascend Hardware).
-- column name: Slice name.
-- column ts: Start in ns.
-- column end_ns: End in ns.
-- column slice_id: The slice (slice.id).
-- column process_id: The slice's process (process.id).
-- column thread_id: The slice's thread (thread.id).
with
lanes as (
    select t.id as thread_id, t.process_id,
        case p.name when 'Python' then 'python' when 'CANN' then 'cann' when 'Ascend Hardware' then 'task' end as role
    from thread as t
    join process as p on p.id = t.process_id
    where t.source_id = :source_id and p.name in ('Python', 'CANN', 'Ascend Hardware')
),

final as (
    select l.role, s.name, s.ts, s.ts + s.dur as end_ns, s.id as slice_id, l.process_id, l.thread_id
    from lanes as l
    join slice as s on s.thread_id = l.thread_id
    where (:start_ns is null or (s.ts + s.dur >= :start_ns and s.ts <= :end_ns))
        and (l.role = 'task'
             or (l.role = 'python' and (s.name like 'Enqueue%' or s.name like 'Dequeue%' or s.name like '<built-in%'
                                        or s.name like 'aten::%' or s.name like 'npu::%' or s.name like 'vllm::%'))
             or (l.role = 'cann' and (s.name like '%aclopCompileAndExecute%' or s.name like 'aclnn%'
                                      or s.name like 'AscendCL@aclnn%' or s.name like '%launch%')))
)

select role, name, ts, end_ns, slice_id, process_id, thread_id
from final
order by role, case when role = 'task' then 0 else thread_id end, ts, slice_id
