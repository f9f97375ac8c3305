-- title: Insight operator dispatch
-- description: The operator compilations of a rank that MindStudio Insight's Expert System View lists under
--     "Operator Dispatch" (advisor/operatorDispatch; Ascend/msinsight OperatorDispatchAdvisor.cpp,
--     TraceDatabaseSqlConst.h GenerateOperatorDispatchQueryDbSql, TextSqlConstant.h
--     GenerateOperatorDispatchQueryTextSql, DbTraceDatabaseAdvice.cpp QueryOpDispatchDataForDB): the CANN
--     API calls named like '%aclopCompileAndExecute' (an operator compiled at run time, the jit compile of
--     dynamic shapes) of the inputs answering the rank's timeline, in the time range when one is given; none
--     unless at least threshold of them are (the real server's OPERATOR_COMPILE_CNT_THRESHOLD, 20: fewer
--     is no pattern). Each with the slice it is drawn as.
-- param run_id (integer, required): The run (run.run_id).
-- param rank_id (integer, required): The rank.
-- param start_ns (integer, default null): Only calls ending at or after this time (ns); with end_ns.
-- param end_ns (integer, default null): Only calls starting at or before this time (ns); with start_ns.
-- param threshold (integer, default 20): The fewest calls that make the pattern.
-- column slice_id: The call's slice on the timeline (slice.id).
-- column name: The call's name as its slice is named (a trace's 'AscendCL@aclopCompileAndExecute').
-- column ts: Start in ns.
-- column dur: Duration in ns.
-- column process_id: Process of the slice's lane.
-- column thread_id: Thread of the slice's lane.
-- column depth: Nesting depth of the slice, 0 at the top.
with
calls as (
    select c.slice_id, c.name, c.ts, c.dur
    from cann_api as c
    join answer_source as a on a.source_id = c.source_id and a.fact = 'timeline'
    where a.run_id = :run_id and a.rank_id = :rank_id
        and c.name like '%aclopCompileAndExecute'
        and (:start_ns is null or (c.ts + c.dur >= :start_ns and c.ts <= :end_ns))
),

counted as (
    select count(*) as calls
    from calls
),

final as (
    select c.slice_id, coalesce(s.name, c.name) as name, c.ts, c.dur, t.process_id, s.thread_id,
        coalesce(s.depth, 0) as depth
    from calls as c
    left join slice as s on s.id = c.slice_id
    left join thread as t on t.id = s.thread_id
    where (select calls from counted) >= :threshold
)

select slice_id, name, ts, dur, process_id, thread_id, depth
from final
order by ts, slice_id
