-- title: Slowest framework operators with their call stacks
-- description: The longest framework (torch_npu) operator calls, each with its input
--     shapes and its Python call stack (PYTORCH_CALLCHAINS, innermost frame first, one
--     frame per line), so a slow call leads back to the line of the model that made it.
-- param rank_id (integer, default null): Only this rank; every rank when null.
-- param limit (integer, default 20): How many calls to return.
-- column rank_id: Rank.
-- column ts: Start of the call in ns.
-- column dur: Duration in ns.
-- column name: API name.
-- column input_shapes: Input shapes as recorded.
-- column input_dtypes: Input data types as recorded.
-- column call_stack: The call stack, one frame per line, innermost first; null without stack.
-- column slice_id: The call's slice on the timeline.
with slowest as (
    select source_id, rank_id, ts, dur, name, input_shapes, input_dtypes, callchain_id, slice_id
    from pytorch_api
    where type = 'op' and (:rank_id is null or rank_id = :rank_id)
    order by dur desc, ts
    limit :limit
),

frames as (
    select c.source_id, c.callchain_id, c.depth, c.frame
    from callchain as c
    join slowest as s on s.source_id = c.source_id and s.callchain_id = c.callchain_id
    order by c.source_id, c.callchain_id, c.depth
),

stacks as (
    select source_id, callchain_id, group_concat(frame, '
') as call_stack
    from frames
    group by source_id, callchain_id
),

final as (
    select
        s.rank_id, s.ts, s.dur, s.name, s.input_shapes, s.input_dtypes, k.call_stack, s.slice_id
    from slowest as s
    left join stacks as k on k.source_id = s.source_id and k.callchain_id = s.callchain_id
)

select rank_id, ts, dur, name, input_shapes, input_dtypes, call_stack, slice_id
from final
order by dur desc, ts
