-- title: Insight layer trace
-- description: The slices of one layer of a rank's timeline, one by one in time order: what
--     MindStudio Insight's System View lists as a "... Trace" table (unit/systemViewTrace;
--     Ascend/msinsight TextSqlConstant.h GetQueryPythonViewTraceDataSql, TraceDatabaseHelper.cpp
--     QuerySystemViewTraceData). The layer's slices are those of the rank's timeline processes of
--     that name (and, for 'overlap analysis', a rank db's overlap intervals).
-- param run_id (integer, required): The run (run.run_id).
-- param rank_id (integer, required): The rank.
-- param layer (text, required): Process name of the layer, any case ('python', 'cann', 'ascend hardware', 'hccl', 'overlap analysis').
-- param search (text, default ''): Only slices whose name holds this text, any case.
-- param start_ns (integer, default null): Only slices ending at or after this time (ns); with end_ns.
-- param end_ns (integer, default null): Only slices starting at or before this time (ns); with start_ns.
-- column name: Slice name.
-- column ts: Start in ns.
-- column dur: Duration in ns.
with
-- include: _insight_layer_rows
,

final as (
    select name, ts, dur
    from layer_rows
)

select name, ts, dur
from final
order by ts, name, dur
