-- title: MindSpore communication links
-- description: Per run, MindSpore device and link (sending and receiving rank, transport), the mean
--     per step of the link's transfer time, bytes and bandwidth (hccl_raw), the link summary
--     MindInsight's cluster pages show (its parallel analyser's get_rank_link_summary, the mean record
--     MindSpore writes last: view mindspore_hccl_link_mean), with the step's communication and wait time
--     beside it.
-- param run_id (integer, default null): Only this run; every run when null.
-- param rank_id (integer, default null): Only this device; every device when null.
-- column run_id: Run.
-- column rank_id: Device whose file it is.
-- column src_rank: Sending rank.
-- column dst_rank: Receiving rank.
-- column link_type: SDMA or RDMA.
-- column steps: Steps the link moved data in.
-- column avg_time_ns: Mean transfer time per step in ns.
-- column avg_size_bytes: Mean bytes per step.
-- column avg_bandwidth_bytes_per_s: Mean of the steps' bandwidths in bytes/s.
-- column avg_step_communication_ns: Mean communication time of the device's steps in ns.
-- column avg_step_wait_ns: Mean wait of the device's steps in ns.
with links as (
    select run_id, rank_id, src_rank, dst_rank, link_type, steps, avg_time_ns, avg_size_bytes, avg_bandwidth_bytes_per_s
    from mindspore_hccl_link_mean
    where (:run_id is null or run_id = :run_id) and (:rank_id is null or rank_id = :rank_id)
),

steps as (
    select s.run_id, h.rank_id, avg(h.communication_ns) as avg_step_communication_ns, avg(h.wait_ns) as avg_step_wait_ns
    from mindspore_hccl_step as h
    join source as s on s.id = h.source_id and s.status = 'ok'
    group by s.run_id, h.rank_id
),

final as (
    select
        l.run_id, l.rank_id, l.src_rank, l.dst_rank, l.link_type, l.steps, l.avg_time_ns, l.avg_size_bytes,
        l.avg_bandwidth_bytes_per_s, s.avg_step_communication_ns, s.avg_step_wait_ns
    from links as l
    left join steps as s on s.run_id = l.run_id and s.rank_id = l.rank_id
)

select
    run_id, rank_id, src_rank, dst_rank, link_type, steps, avg_time_ns, avg_size_bytes, avg_bandwidth_bytes_per_s,
    avg_step_communication_ns, avg_step_wait_ns
from final
order by run_id, rank_id, src_rank, dst_rank, link_type
