-- title: Communication matrix
-- description: Traffic between every pair of ranks of each run from the HCCL device tasks of
--     the rank databases (COMMUNICATION_TASK_INFO): bytes and time per source rank,
--     destination rank and transport, and the bandwidth they give. Task times come from
--     their slices; ranks are as the tasks record them (some CANN versions write ranks within
--     the group); tasks without a peer (rank 4294967295, i.e. -1 as uint32) are left out.
-- param run_id (integer, default null): Only this run; every run when null.
-- param group_name (text, default null): Only this communication group; every group when null.
-- column run_id: Run.
-- column src_rank: Sending rank.
-- column dst_rank: Receiving rank.
-- column transport_type: Transport, e.g. SDMA or RDMA.
-- column link_type: Link, e.g. HCCS, PCIE or ROCE.
-- column task_count: Number of tasks moving data between the pair.
-- column total_bytes: Bytes moved.
-- column total_ns: Summed task time in ns (tasks with a slice).
-- column bandwidth_bytes_per_s: total_bytes / total_ns, in bytes/s (null without times).
with tasks as (
    select r.run_id, t.src_rank, t.dst_rank, t.transport_type, t.link_type, t.size_bytes, s.dur
    from communication_task as t
    join source as r on r.id = t.source_id
    left join _slice as s on s.id = t.slice_id
    where t.size_bytes > 0 and t.src_rank <> 4294967295 and t.dst_rank <> 4294967295
        and (:run_id is null or r.run_id = :run_id)
        and (:group_name is null or t.group_name = :group_name)
),

final as (
    select
        run_id,
        src_rank,
        dst_rank,
        transport_type,
        link_type,
        count(*) as task_count,
        sum(size_bytes) as total_bytes,
        sum(dur) as total_ns,
        1e9 * sum(case when dur > 0 then size_bytes end) / nullif(sum(case when dur > 0 then dur end), 0)
            as bandwidth_bytes_per_s
    from tasks
    group by run_id, src_rank, dst_rank, transport_type, link_type
)

select
    run_id, src_rank, dst_rank, transport_type, link_type, task_count, total_bytes, total_ns, bandwidth_bytes_per_s
from final
order by run_id, src_rank, dst_rank, transport_type, link_type
