-- title: Insight layer summary
-- description: One layer of a rank's timeline summed by slice name: what MindStudio Insight's
--     System View lists as a "... Summary" table (unit/systemView; Ascend/msinsight
--     TextSqlConstant.h GetQueryPythonViewDataSql, TraceDatabaseHelper.cpp QuerySystemViewData).
--     The layer's slices are those of the rank's timeline processes of that name (and, for
--     'overlap analysis', a rank db's overlap intervals). A name's share is of the layer's time less
--     the slices named 'Communication' (which overlap the others), as the real server divides it.
-- param run_id (integer, required): The run (run.run_id).
-- param rank_id (integer, required): The rank.
-- param layer (text, required): Process name of the layer, any case ('python', 'cann', 'ascend hardware', 'hccl', 'overlap analysis').
-- param search (text, default ''): Only slices whose name holds this text, any case.
-- param start_ns (integer, default null): Only slices ending at or after this time (ns); with end_ns.
-- param end_ns (integer, default null): Only slices starting at or before this time (ns); with start_ns.
-- column name: Slice name.
-- column calls: Number of slices of the name.
-- column total_ns: Their summed duration in ns.
-- column avg_ns: Their mean duration in ns.
-- column min_ns: The shortest in ns.
-- column max_ns: The longest in ns.
-- column share: Their summed duration in percent of the layer's (less the slices named 'Communication').
with
-- include: _insight_layer_rows
,

busy as (
    select sum(case when name != 'Communication' then dur else 0 end) as busy_ns
    from layer_rows
),

final as (
    select
        r.name,
        count(*) as calls,
        sum(r.dur) as total_ns,
        avg(r.dur) as avg_ns,
        min(r.dur) as min_ns,
        max(r.dur) as max_ns,
        100.0 * sum(r.dur) / nullif(b.busy_ns, 0) as share
    from layer_rows as r
    cross join busy as b
    group by r.name, b.busy_ns
)

select name, calls, total_ns, avg_ns, min_ns, max_ns, share
from final
order by total_ns desc, name
