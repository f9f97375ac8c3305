-- title: HCCL operators slowed by RDMA retransmission (communication advice)
-- description: Per run, step, communication group and HCCL operator over RDMA, the least elapsed
--     time of the operator over the group's ranks and the longest RDMA transit: listed when the
--     operator takes at least min_ms on every rank and some rank's RDMA transit is longer than min_ms,
--     MindStudio Insight's "Communication Retransmission Analysis" advice of the Communication page
--     (communication/advisor; server RetransmissionAnalyzer.cpp: 4000 ms, as the cluster database's
--     elapsed and transit times are in ms). The rows are the RDMA rows of the communication summary
--     that answers each rank (communication_bandwidth_answer; 'Total Op Info' left out) with the
--     operator's elapsed time on that rank (communication_time_answer of the same step, group, rank
--     and operator).
-- param run_id (integer, default null): Only this run; every run when null.
-- param min_ms (real, default 4000): An operator is listed when its least elapse reaches this and its longest RDMA transit exceeds it (ms).
-- column run_id: Run.
-- column step_id: Step number.
-- column group_name: Communication group (the hash after '@').
-- column op_name: HCCL operator name.
-- column min_elapse_ms: The operator's least elapsed time over the ranks, in ms.
-- column max_rdma_transit_ms: Its longest RDMA transit time over the ranks, in ms.
with rdma as (
    select b.run_id, b.step_id, b.group_name, b.op_name, t.elapse_ns, b.transit_ns
    from communication_bandwidth_answer as b
    join communication_time_answer as t
        on t.run_id = b.run_id and t.rank_id = b.rank_id and t.step_id is b.step_id
        and t.group_name is b.group_name and t.op_name = b.op_name
    where b.transport_type = 'RDMA' and b.op_name <> 'Total Op Info'
        and (:run_id is null or b.run_id = :run_id)
),

final as (
    select
        run_id, step_id, group_name, op_name,
        min(elapse_ns) / 1e6 as min_elapse_ms, max(transit_ns) / 1e6 as max_rdma_transit_ms
    from rdma
    group by run_id, step_id, group_name, op_name
)

select run_id, step_id, group_name, op_name, min_elapse_ms, max_rdma_transit_ms
from final
where min_elapse_ms >= :min_ms and max_rdma_transit_ms > :min_ms
order by run_id, step_id, group_name, op_name
