-- title: Communication matrix summary
-- description: Per sending rank, receiving rank and transport, the traffic of the HCCL
--     operators from communication_matrix.json / analysis.db / cluster_communication_matrix.json
--     (msprof-analyze's ClusterCommunicationMatrix). 'Total Op Info' rows are left out.
-- param step_id (integer, default null): Only this step; every step when null.
-- column src_rank: Sending rank.
-- column dst_rank: Receiving rank.
-- column transport_type: Transport type: LOCAL, HCCS, RDMA, PCIE, SIO ...
-- column op_count: Number of operator entries for the pair.
-- column transit_bytes: Bytes moved.
-- column transit_ns: Time moving them in ns.
-- column bandwidth_bytes_per_s: transit_bytes / transit_ns in bytes/s.
with pairs as (
    select src_rank, dst_rank, transport_type, transit_bytes, transit_ns
    from communication_matrix
    where op_name <> 'Total Op Info' and (:step_id is null or step_id = :step_id)
),

final as (
    select
        src_rank,
        dst_rank,
        transport_type,
        count(*) as op_count,
        sum(transit_bytes) as transit_bytes,
        sum(transit_ns) as transit_ns,
        1e9 * sum(transit_bytes) / nullif(sum(transit_ns), 0) as bandwidth_bytes_per_s
    from pairs
    group by src_rank, dst_rank, transport_type
)

select src_rank, dst_rank, transport_type, op_count, transit_bytes, transit_ns, bandwidth_bytes_per_s
from final
order by src_rank, dst_rank, transport_type
