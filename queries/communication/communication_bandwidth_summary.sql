-- title: Communication bandwidth summary
-- description: Per rank, step and transport type, the bytes the HCCL operators moved, the
--     time they took and the bandwidth, from communication.json / analysis.db / cluster_communication.json
--     (msprof-analyze's ClusterCommunicationBandwidth). 'Total Op Info' rows are left out.
-- param rank_id (integer, default null): Only this rank; every rank when null.
-- column rank_id: Rank.
-- column step_id: Step number.
-- column transport_type: Transport type: RDMA, HCCS, PCIE, SDMA, SIO ...
-- column op_count: Number of operators using it.
-- column transit_bytes: Bytes moved.
-- column transit_ns: Time moving them in ns.
-- column bandwidth_bytes_per_s: transit_bytes / transit_ns in bytes/s.
with ops as (
    select rank_id, step_id, transport_type, transit_bytes, transit_ns
    from communication_bandwidth
    where op_name <> 'Total Op Info' and (:rank_id is null or rank_id = :rank_id)
),

final as (
    select
        rank_id,
        step_id,
        transport_type,
        count(*) as op_count,
        sum(transit_bytes) as transit_bytes,
        sum(transit_ns) as transit_ns,
        1e9 * sum(transit_bytes) / nullif(sum(transit_ns), 0) as bandwidth_bytes_per_s
    from ops
    group by rank_id, step_id, transport_type
)

select rank_id, step_id, transport_type, op_count, transit_bytes, transit_ns, bandwidth_bytes_per_s
from final
order by rank_id, step_id, transport_type
