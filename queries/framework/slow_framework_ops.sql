-- title: Slowest framework operators with their call stacks
-- description: The longest framework (torch_npu) operator calls of each run, each with its
--     input shapes and its Python call stack (PYTORCH_CALLCHAINS, innermost frame first, one
--     frame per line), so a slow call leads back to the line of the model that made it.
-- param run_id (integer, default null): Only this run; every run when null.
-- param rank_id (integer, default null): Only this rank; every rank when null.
-- param limit (integer, default 20): How many calls to return per run.
-- column run_id: Run.
-- column rank_id: Rank.
-- column ts: Start of the call in ns.
-- column dur: Duration in ns.
-- column name: API name.
-- column input_shapes: Input shapes as recorded.
-- column input_dtypes: Input data types as recorded.
-- column call_stack: The call stack, one frame per line, innermost first; null without stack.
-- column slice_id: The call's slice on the timeline.
with calls as (
    select
        s.run_id, p.source_id, p.rank_id, p.ts, p.dur, p.name, p.input_shapes, p.input_dtypes, p.callchain_id,
        p.slice_id,
        row_number() over (partition by s.run_id order by p.dur desc, p.ts, p.source_id, p.source_row) as position
    from pytorch_api as p
    join source as s on s.id = p.source_id
    where p.type = 'op' and (:run_id is null or s.run_id = :run_id) and (:rank_id is null or p.rank_id = :rank_id)
),

slowest as (
    select run_id, source_id, rank_id, ts, dur, name, input_shapes, input_dtypes, callchain_id, slice_id
    from calls
    where position <= :limit
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
        s.run_id, s.rank_id, s.ts, s.dur, s.name, s.input_shapes, s.input_dtypes, k.call_stack, s.slice_id
    from slowest as s
    left join stacks as k on k.source_id = s.source_id and k.callchain_id = s.callchain_id
)

select run_id, rank_id, ts, dur, name, input_shapes, input_dtypes, call_stack, slice_id
from final
order by run_id, dur desc, ts
