-- title: Insight category flows
-- description: The arrows of one category with an end inside a time range on one input's
--     timeline, each with both ends (process, thread, time, depth): what MindStudio Insight's
--     timeline draws for a category it shows (flow/categoryEvents). An end's time is its flow
--     event's own (trace s/t/f ts), the bound slice's start when the input gives none (a rank db),
--     as in insight_slice_flows. The arrows are found from the slices of the input's threads that
--     overlap the range (each thread read on its (thread_id, ts) index from ts - max_dur).
-- param source_id (integer, required): The input (source.id).
-- param category (text, required): The arrow category (its name when it has none).
-- param start_ns (integer, required): Start of the range in ns (absolute).
-- param end_ns (integer, required): End of the range in ns (absolute).
-- column flow_id: Identifier of the flow.
-- column from_process_id: Process of the slice the arrow starts from.
-- column from_thread_id: Its thread.
-- column from_ts: Time in ns of the flow event the arrow starts from (else the slice's start).
-- column from_depth: Depth of that slice.
-- column to_process_id: Process of the slice the arrow points to.
-- column to_thread_id: Its thread.
-- column to_ts: Time in ns of the flow event the arrow points to (else the slice's start).
-- column to_depth: Depth of that slice.
with lanes as (
    select id as thread_id, max_dur
    from thread
    where source_id = :source_id
),

seen as (
    select s.id
    from lanes as l
    cross join _slice as s
    where s.thread_id = l.thread_id
        and s.ts >= :start_ns - l.max_dur
        and s.ts <= :end_ns
        and s.ts + s.dur >= :start_ns
),

flows as (
    select f.id, f.slice_out, f.slice_in, f.ts_out, f.ts_in, f.category, f.name
    from seen as v
    join flow as f on f.slice_out = v.id
    union
    select f.id, f.slice_out, f.slice_in, f.ts_out, f.ts_in, f.category, f.name
    from seen as v
    join flow as f on f.slice_in = v.id
),

final as (
    select
        f.id as flow_id,
        ta.process_id as from_process_id,
        a.thread_id as from_thread_id,
        coalesce(f.ts_out, a.ts) as from_ts,
        a.depth as from_depth,
        tb.process_id as to_process_id,
        b.thread_id as to_thread_id,
        coalesce(f.ts_in, b.ts) as to_ts,
        b.depth as to_depth
    from flows as f
    join _slice as a on a.id = f.slice_out
    join thread as ta on ta.id = a.thread_id
    join _slice as b on b.id = f.slice_in
    join thread as tb on tb.id = b.thread_id
    where coalesce(f.category, f.name) = :category
)

select flow_id, from_process_id, from_thread_id, from_ts, from_depth, to_process_id, to_thread_id, to_ts, to_depth
from final
where from_ts between :start_ns and :end_ns or to_ts between :start_ns and :end_ns
order by from_ts, flow_id
