-- title: Insight memcpy tasks
-- description: The memory copy tasks of one input of a rank's timeline, as MindStudio Insight's System
--     View sums them in "Memcpy Overall" (memcpy/total/list, memcpy/detail/list; Ascend/msinsight
--     MemcpyOverallDatabaseAccesser.cpp): a rank db's tasks MEMCPY_INFO describes (memcpy_task, on
--     the device stream's lane 'Stream <id>'), else the input's slices named MEMCPY_ASYNC with the
--     direction and bytes their args give (operation, Operation or OPERATION; size(B)), on their
--     thread. A rank db's MEMCPY_ASYNC slices without a MEMCPY_INFO row are not copies described.
-- param source_id (integer, required): The input (source.id) answering the rank's timeline.
-- param start_ns (integer, default null): Only tasks starting at or after this time (ns); with end_ns.
-- param end_ns (integer, default null): Only tasks ending at or before this time (ns); with start_ns.
-- column thread_key: The lane's thread id as its input writes it (a rank db's: the stream id).
-- column thread_name: The lane's name.
-- column operation: Direction of the copy ('' when not given).
-- column size_bytes: Bytes copied (0 when not given).
-- column ts: Start in ns.
-- column dur: Duration in ns.
-- column slice_id: The task's slice (slice.id).
-- column name: The slice's name (a rank db's task type, MEMCPY_ASYNC).
with
kind as (
    select kind = 'rank_db' as is_db
    from source
    where id = :source_id
),

described as (
    select
        cast(t.tid as text) as thread_key, 'Stream ' || t.tid as thread_name, coalesce(m.operation, '') as operation,
        coalesce(m.size_bytes, 0) as size_bytes, s.ts, s.dur, s.id as slice_id, s.name
    from memcpy_task as m
    join slice as s on s.id = m.slice_id
    join thread as t on t.id = s.thread_id
    where m.source_id = :source_id and (select is_db from kind)
),

copy_slices as (
    select s.id, s.ts, s.dur, s.name, t.tid, t.name as thread_name, s.args
    from slice as s
    join thread as t on t.id = s.thread_id
    where t.source_id = :source_id and s.name = 'MEMCPY_ASYNC' and not (select is_db from kind)
),

traced as (
    select
        cast(tid as text) as thread_key, coalesce(thread_name, '') as thread_name,
        coalesce(json_extract(args, '$.operation'), json_extract(args, '$.Operation'),
                 json_extract(args, '$.OPERATION'), '') as operation,
        coalesce(cast(json_extract(args, '$."size(B)"') as integer), 0) as size_bytes,
        ts, dur, id as slice_id, name
    from copy_slices
),

final as (
    select thread_key, thread_name, operation, size_bytes, ts, dur, slice_id, name from described
    union all
    select thread_key, thread_name, operation, size_bytes, ts, dur, slice_id, name from traced
)

select thread_key, thread_name, operation, size_bytes, ts, dur, slice_id, name
from final
where :start_ns is null or (ts >= :start_ns and ts + dur <= :end_ns)
order by ts, slice_id
