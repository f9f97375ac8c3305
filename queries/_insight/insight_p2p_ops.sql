-- title: Insight point-to-point operators
-- description: A rank's point-to-point HCCL operators, as MindStudio Insight's pipeline chart draws them on
--     its "P2P Op" lane (parallelism/pipeline/fwdBwdTimeline; Ascend/msinsight TraceDatabaseHelper.h
--     QUERY_P2P_COMMUNICATION_OP_DB_SQL and _TEXT_SQL): the rank's HCCL operators (hccl_operator, either
--     export) named like 'hcom_send%', 'hcom_receive%' or 'hcom_batchsendrecv%' (any case, LIKE's
--     wildcards as the real server's), lying inside the step's range (the whole time line without
--     :step_id), each with the lane of its slice, in time order.
-- param run_id (integer, required): The run (run.run_id).
-- param rank_id (integer, required): The rank.
-- param step_id (integer, default null): Only operators inside this step of the rank.
-- column name: Operator name.
-- column ts: Start in ns.
-- column dur: Duration in ns.
-- column process_id: Process of the operator's slice (null without one).
-- column thread_id: Thread of the operator's slice (null without one).
with
-- include: _insight_step_range
,

final as (
    select o.name, o.ts, o.dur, t.process_id, s.thread_id
    from hccl_operator as o
    cross join step_range as r
    left join _slice as s on s.id = o.slice_id
    left join thread as t on t.id = s.thread_id
    where o.run_id = :run_id and o.rank_id = :rank_id
        and (o.name like 'hcom_send%' or o.name like 'hcom_receive%' or o.name like 'hcom_batchsendrecv%')
        and (r.range_start is null or (o.ts >= r.range_start and o.ts + o.dur <= r.range_end))
)

select name, ts, dur, process_id, thread_id
from final
order by ts, name
