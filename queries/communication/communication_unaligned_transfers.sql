-- title: Unaligned SDMA transfers per HCCL operator (communication advice)
-- description: Per run, rank and HCCL operator (named hcom...), how many of its Memcpy and Reduce
--     tasks move over SDMA, off chip (link type not ON_CHIP), more than small_bytes and a size that is
--     no multiple of base_bytes: MindStudio Insight's "Byte Alignment Analysis" advice of the
--     Communication page (communication/advisor; server ByteAlignmentAnalyzer.cpp: 512-byte alignment
--     of transfers above 512 bytes, read from each rank's trace database). The tasks are those of the
--     input that answers the rank's timeline: a rank db's COMMUNICATION_TASK_INFO with its operator's
--     name or an msprof timeline's HCCL tasks (communication_task, the operator in communication_op);
--     a text export's trace_view.json HCCL task slices, each of the hcom slice of the HCCL process
--     started last before it (as the server takes the hcom slice read last before it) when that
--     slice holds its start, their fields from the slice's args (task type, transport type, link
--     type, size(Byte)). Only operators with such a task are listed, ranks in the order of their text (the
--     server's map of rank ids), operators by name.
-- param run_id (integer, default null): Only this run; every run when null.
-- param small_bytes (integer, default 512): A transfer of at most this many bytes is not checked.
-- param base_bytes (integer, default 512): A checked transfer is aligned when its size is a multiple of this.
-- column run_id: Run.
-- column rank_id: Rank.
-- column op_name: HCCL operator name, e.g. hcom_allReduce__210_0_1.
-- column unaligned_tasks: Number of its checked Memcpy / Reduce tasks whose size is not aligned.
-- column unaligned_bytes: Bytes those tasks move.
with timeline as (
    select run_id, rank_id, source_id, kind
    from answer_source
    where fact = 'timeline' and (:run_id is null or run_id = :run_id)
),

hcom as (
    select distinct o.source_id, o.name
    from communication_op as o
    join timeline as l on l.source_id = o.source_id
    where substr(o.name, 1, 4) = 'hcom'
),

stored_tasks as (
    select l.run_id, t.rank_id, t.name as op_name, t.task_type, t.transport_type, t.link_type, t.size_bytes
    from communication_task as t
    join timeline as l on l.source_id = t.source_id
    join hcom as o on o.source_id = t.source_id and o.name = t.name
),

hccl_slices as (
    select l.run_id, l.rank_id, x.source_id, x.ts, x.dur, n.value as name, x.args
    from timeline as l
    join process as p on p.name = 'HCCL'
    join thread as h on h.process_id = p.id
    join _slice as x on x.thread_id = h.id and x.source_id = l.source_id
    join string as n on n.id = x.name_id
    where l.kind = 'trace_json'
),

hccl_events as (
    select
        run_id, rank_id, source_id, ts, dur, name, args,
        case when json_extract(args, '$."task type"') is null then 1 else 0 end as is_op
    from hccl_slices
    where json_extract(args, '$."task type"') is not null or substr(name, 1, 4) = 'hcom'
),

numbered as (
    select
        run_id, rank_id, source_id, ts, dur, name, args, is_op,
        sum(is_op) over (
            partition by source_id order by ts, is_op desc rows between unbounded preceding and current row
        ) as op_number
    from hccl_events
),

trace_tasks as (
    select
        t.run_id, t.rank_id, o.name as op_name,
        json_extract(t.args, '$."task type"') as task_type,
        json_extract(t.args, '$."transport type"') as transport_type,
        json_extract(t.args, '$."link type"') as link_type,
        cast(json_extract(t.args, '$."size(Byte)"') as integer) as size_bytes
    from numbered as t
    join numbered as o
        on o.source_id = t.source_id and o.op_number = t.op_number and o.is_op = 1
    where t.is_op = 0 and t.ts <= o.ts + o.dur
),

tasks as (
    select run_id, rank_id, op_name, task_type, transport_type, link_type, size_bytes
    from stored_tasks
    union all
    select run_id, rank_id, op_name, task_type, transport_type, link_type, size_bytes
    from trace_tasks
),

final as (
    select run_id, rank_id, op_name, count(*) as unaligned_tasks, sum(size_bytes) as unaligned_bytes
    from tasks
    where substr(task_type, 1, 6) in ('Memcpy', 'Reduce')
        and transport_type = 'SDMA' and coalesce(link_type, '') <> 'ON_CHIP'
        and size_bytes > :small_bytes and size_bytes % :base_bytes > 0
    group by run_id, rank_id, op_name
)

select run_id, rank_id, op_name, unaligned_tasks, unaligned_bytes
from final
order by run_id, cast(rank_id as text), op_name
