-- title: Insight slice flows
-- description: The arrows that start or end at one slice, each with both of its ends
--     (process, thread, time, duration, depth, name). An end's time is its flow event's own
--     (trace s/t/f ts), the bound slice's start when the input gives none (a rank db).
-- param slice_id (integer, required): The slice (slice.id).
-- column flow_id: Identifier of the flow.
-- column flow_key: The input's own id for the flow (trace 'id', connection id), as text.
-- column name: Name of the flow event.
-- column category: Category of the flow event.
-- column from_id: Slice the arrow starts from.
-- column from_process_id: Its process.
-- column from_thread_id: Its thread.
-- column from_ts: Time in ns of the flow event the arrow starts from (else the slice's start).
-- column from_dur: Its duration in ns.
-- column from_depth: Its depth.
-- column from_name: Its name.
-- column to_id: Slice the arrow points to.
-- column to_process_id: Its process.
-- column to_thread_id: Its thread.
-- column to_ts: Time in ns of the flow event the arrow points to (else the slice's start).
-- column to_dur: Its duration in ns.
-- column to_depth: Its depth.
-- column to_name: Its name.
with flows as (
    select id, name, category, slice_out, slice_in, flow_key, ts_out, ts_in
    from flow
    where slice_out = :slice_id or slice_in = :slice_id
),

ends as (
    select s.id, t.process_id, s.thread_id, s.ts, s.dur, s.depth, s.name
    from slice as s
    join thread as t on t.id = s.thread_id
    where s.id in (select slice_out from flows) or s.id in (select slice_in from flows)
),

final as (
    select
        f.id as flow_id,
        f.flow_key,
        f.name,
        f.category,
        f.slice_out as from_id,
        a.process_id as from_process_id,
        a.thread_id as from_thread_id,
        coalesce(f.ts_out, a.ts) as from_ts,
        a.dur as from_dur,
        a.depth as from_depth,
        a.name as from_name,
        f.slice_in as to_id,
        b.process_id as to_process_id,
        b.thread_id as to_thread_id,
        coalesce(f.ts_in, b.ts) as to_ts,
        b.dur as to_dur,
        b.depth as to_depth,
        b.name as to_name
    from flows as f
    join ends as a on a.id = f.slice_out
    join ends as b on b.id = f.slice_in
)

select flow_id, flow_key, name, category, from_id, from_process_id, from_thread_id, from_ts, from_dur, from_depth,
    from_name, to_id, to_process_id, to_thread_id, to_ts, to_dur, to_depth, to_name
from final
order by coalesce(category, name), from_ts, flow_id
