-- title: Communication bandwidth summary
-- description: Per run, rank, step and transport type, the bytes the HCCL operators moved,
--     the time they took and the bandwidth, from the input that answers the rank's
--     communication summary (communication_bandwidth_answer: analysis.db, else
--     communication.json, else cluster_communication.json; msprof-analyze's
--     ClusterCommunicationBandwidth): a rank holding two of them counts each operator once.
--     'Total Op Info' rows are left out.
-- param run_id (integer, default null): Only this run; every run when null.
-- param rank_id (integer, default null): Only this rank; every rank when null.
-- param group_name (text, default null): Only this communication group (the hash after '@'); every
--     group when null.
-- param op_name (text, default null): Only this operator (its name before '@'); every operator
--     summed when null.
-- column run_id: Run.
-- column rank_id: Rank.
-- column step_id: Step number.
-- column transport_type: Transport type: RDMA, HCCS, PCIE, SDMA, SIO ...
-- column op_count: Number of operators using it.
-- column transit_bytes: Bytes moved.
-- column transit_ns: Time moving them in ns.
-- column bandwidth_bytes_per_s: transit_bytes / transit_ns in bytes/s.
with ops as (
    select run_id, rank_id, step_id, transport_type, transit_bytes, transit_ns
    from communication_bandwidth_answer
    where op_name <> 'Total Op Info' and (:run_id is null or run_id = :run_id)
        and (:group_name is null or group_name = :group_name) and (:op_name is null or op_name = :op_name)
        and (:rank_id is null or rank_id = :rank_id)
),

final as (
    select
        run_id,
        rank_id,
        step_id,
        transport_type,
        count(*) as op_count,
        sum(transit_bytes) as transit_bytes,
        sum(transit_ns) as transit_ns,
        1e9 * sum(transit_bytes) / nullif(sum(transit_ns), 0) as bandwidth_bytes_per_s
    from ops
    group by run_id, rank_id, step_id, transport_type
)

select run_id, rank_id, step_id, transport_type, op_count, transit_bytes, transit_ns, bandwidth_bytes_per_s
from final
order by run_id, rank_id, step_id, transport_type
