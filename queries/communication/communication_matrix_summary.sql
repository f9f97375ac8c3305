-- title: Communication matrix summary
-- description: Per run, sending rank, receiving rank and transport, the traffic of the HCCL
--     operators from the input that answers each rank's communication matrix
--     (communication_matrix_answer: analysis.db, else communication_matrix.json; msprof-analyze's
--     ClusterCommunicationMatrix): a rank holding two of them counts each operator once. The
--     cluster file (cluster_communication_matrix.json) answers only for a run without per-rank
--     matrices, which it repeats. 'Total Op Info' rows are left out.
-- param run_id (integer, default null): Only this run; every run when null.
-- param step_id (integer, default null): Only this step; every step when null.
-- param group_name (text, default null): Only this communication group (the hash after '@'); every
--     group when null.
-- param op_name (text, default null): Only this operator (its name before '@'); every operator
--     summed when null.
-- column run_id: Run.
-- column src_rank: Sending rank.
-- column dst_rank: Receiving rank.
-- column transport_type: Transport type: LOCAL, HCCS, RDMA, PCIE, SIO ...
-- column op_count: Number of operator entries for the pair.
-- column transit_bytes: Bytes moved.
-- column transit_ns: Time moving them in ns.
-- column bandwidth_bytes_per_s: transit_bytes / transit_ns in bytes/s.
with answered as (
    select
        run_id, kind, src_rank, dst_rank, transport_type, transit_bytes, transit_ns,
        max(case when kind <> 'cluster_communication_matrix_json' then 1 else 0 end) over (partition by run_id)
            as has_rank_rows
    from communication_matrix_answer
    where op_name <> 'Total Op Info' and (:run_id is null or run_id = :run_id)
        and (:group_name is null or group_name = :group_name) and (:op_name is null or op_name = :op_name)
        and (:step_id is null or step_id = :step_id)
),

pairs as (
    select run_id, src_rank, dst_rank, transport_type, transit_bytes, transit_ns
    from answered
    where kind <> 'cluster_communication_matrix_json' or has_rank_rows = 0
),

final as (
    select
        run_id,
        src_rank,
        dst_rank,
        transport_type,
        count(*) as op_count,
        sum(transit_bytes) as transit_bytes,
        sum(transit_ns) as transit_ns,
        1e9 * sum(transit_bytes) / nullif(sum(transit_ns), 0) as bandwidth_bytes_per_s
    from pairs
    group by run_id, src_rank, dst_rank, transport_type
)

select run_id, src_rank, dst_rank, transport_type, op_count, transit_bytes, transit_ns, bandwidth_bytes_per_s
from final
order by run_id, src_rank, dst_rank, transport_type
