-- title: Insight thread named slices
-- description: The slices of one name on one thread that overlap a time range, in time order:
--     the rows behind one line of the timeline's selection summary (insight_thread_names counts
--     the same slices), which MindStudio Insight's frontend lists one by one
--     (query/all/same/operators/duration).
-- param thread_id (integer, required): The thread (thread.id).
-- param slice_name (text, required): The slice name.
-- param start_ns (integer, required): Start of the range in ns (absolute).
-- param end_ns (integer, required): End of the range in ns (absolute).
-- column id: Identifier of the slice.
-- column ts: Start in ns.
-- column dur: Duration in ns.
-- column depth: Nesting depth, 0 at the top.
with named as (
    select id as name_id
    from string
    where value = :slice_name
),

final as (
    select s.id, s.ts, s.dur, s.depth
    from _slice as s
    where s.thread_id = :thread_id
        and s.name_id = (select name_id from named)
        and s.ts < :end_ns
        and s.ts + s.dur > :start_ns
)

select id, ts, dur, depth
from final
order by ts, id
