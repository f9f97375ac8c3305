-- title: Insight forward and backward blocks
-- description: A rank's forward and backward passes per micro-batch, as MindStudio Insight's pipeline chart
--     draws them on its "FP/BP" lane (parallelism/pipeline/fwdBwdTimeline; Ascend/msinsight
--     QueryFwdBwdTimelineHandler.cpp QueryFwdBwdTimelineFromFlow, TraceDatabaseSqlConst.h
--     CREATE_TEMP_FWDBWD_FLOW_TABLE_*_SQL and QUERY_FWDBWD_FLOW_DATA_SQL). Each forward framework operator is
--     linked to its backward one (a trace's fwdbwd flow, a rank db's connection between two 'op' calls: the
--     flows of the rank's timeline inputs between two framework calls of type op, the forward starting
--     first). In forward order, a micro-batch's forwards start later and later while their backwards start
--     earlier and earlier: a micro-batch ends where the next pair's backward starts later, and, in backward
--     order, before a pair whose forward starts later than the one before it (what separates a virtual
--     pipeline's chunks). A block runs from its first forward's start to its last forward's end (FP) and
--     from its last forward's backward start to its first forward's backward end (BP); blocks whose forward
--     starts in the step's range (the whole time line without :step_id). The real server starts the first
--     block at the second pair's forward (its first row is joined with the second); here it starts at the
--     first pair's.
-- param run_id (integer, required): The run (run.run_id).
-- param rank_id (integer, required): The rank.
-- param step_id (integer, default null): Only blocks whose forward starts in this step of the rank.
-- column block: The block's place among the rank's blocks, from 0, in forward order.
-- column fp_start: Start of the forward pass in ns.
-- column fp_end: End of the forward pass in ns.
-- column bp_start: Start of the backward pass in ns.
-- column bp_end: End of the backward pass in ns.
with
-- include: _insight_step_range
,

operators as (
    select p.slice_id
    from pytorch_api as p
    join answer_source as a on a.source_id = p.source_id and a.fact = 'timeline'
    where a.run_id = :run_id and a.rank_id = :rank_id and p.type = 'op' and p.slice_id is not null
),

pairs as (
    select
        fwd.ts as fwd_start, fwd.ts + fwd.dur as fwd_end, bwd.ts as bwd_start, bwd.ts + bwd.dur as bwd_end
    from flow as f
    join operators as o on o.slice_id = f.slice_out
    join operators as i on i.slice_id = f.slice_in
    join _slice as fwd on fwd.id = f.slice_out
    join _slice as bwd on bwd.id = f.slice_in
    where fwd.ts < bwd.ts
),

ordered as (
    select fwd_start, fwd_end, bwd_start, bwd_end, row_number() over (order by fwd_start, bwd_start) as n
    from pairs
),

by_backward as (
    select n, fwd_start, lag(fwd_start) over (order by bwd_start, n) as fwd_before
    from ordered
),

ends as (
    select o.n
    from ordered as o
    left join ordered as later on later.n = o.n + 1
    where later.n is null or later.bwd_start > o.bwd_start
    union
    select n
    from by_backward
    where fwd_before is null or fwd_start > fwd_before
),

blocks as (
    select
        coalesce(lag(n) over (order by n), 0) + 1 as first_n,
        n as last_n,
        row_number() over (order by n) - 1 as block
    from ends
),

final as (
    select b.block, f.fwd_start as fp_start, l.fwd_end as fp_end, l.bwd_start as bp_start, f.bwd_end as bp_end
    from blocks as b
    join ordered as f on f.n = b.first_n
    join ordered as l on l.n = b.last_n
    cross join step_range as r
    where r.range_start is null or (f.fwd_start >= r.range_start and f.fwd_start <= r.range_end)
)

select block, fp_start, fp_end, bp_start, bp_end
from final
order by block
