-- title: Slice flows
-- description: The arrows that start or end at one slice (trace flow events, framework
--     to device connections), with the slice at the other end.
-- param slice_id (integer, required): The slice (slice.id).
-- column flow_id: Identifier of the flow.
-- column direction: out when the arrow starts at this slice, in when it points to it.
-- column name: Name of the flow event.
-- column category: Category of the flow event.
-- column other_slice_id: The slice at the other end.
-- column other_name: Its name.
-- column other_ts: Its start in ns.
-- column other_dur: Its duration in ns.
-- column other_thread_id: Its thread.
with outgoing as (
    select id, 'out' as direction, name, category, slice_in as other_id
    from flow
    where slice_out = :slice_id
),

incoming as (
    select id, 'in' as direction, name, category, slice_out as other_id
    from flow
    where slice_in = :slice_id
),

flows as (
    select id, direction, name, category, other_id from outgoing
    union all
    select id, direction, name, category, other_id from incoming
),

final as (
    select
        f.id as flow_id,
        f.direction,
        f.name,
        f.category,
        f.other_id as other_slice_id,
        n.value as other_name,
        s.ts as other_ts,
        s.dur as other_dur,
        s.thread_id as other_thread_id
    from flows as f
    -- _slice, not the slice view: on the right of a LEFT JOIN the view would be built whole
    left join _slice as s on s.id = f.other_id
    left join string as n on n.id = s.name_id
)

select flow_id, direction, name, category, other_slice_id, other_name, other_ts, other_dur, other_thread_id
from final
order by other_ts, flow_id
