-- description: Each link of each MindSpore device's hccl_raw_{device}.csv over its steps, one row per
--     run, device, sending and receiving rank and transport: the means of the steps' transfer time, bytes
--     and bandwidth, the figures of the mean record MindSpore writes last (the mean of every step's; on
--     MindInsight's cluster_propose sample to the last digit), what MindInsight's parallel analyser lists
--     as the rank link summary (get_rank_link_summary). The ranks are as the file names them.
-- column run_id: Run.
-- column rank_id: Device whose file it is.
-- column src_rank: Sending rank.
-- column dst_rank: Receiving rank.
-- column link_type: SDMA or RDMA.
-- column steps: Steps the link moved data in.
-- column avg_time_ns: Mean transfer time per step in ns.
-- column avg_size_bytes: Mean bytes per step.
-- column avg_bandwidth_bytes_per_s: Mean of the steps' bandwidths in bytes/s (KB/s x 1000 in the file), to
--     0.1 byte/s (MindInsight's 4 decimals of KB/s), so that an engine adding the steps in another order
--     gives the same figure.
SELECT
    s.run_id, l.rank_id, l.src_rank, l.dst_rank, l.link_type, COUNT(*) AS steps,
    AVG(l.time_ns) AS avg_time_ns, AVG(l.size_bytes) AS avg_size_bytes,
    ROUND(AVG(l.bandwidth_bytes_per_s), 1) AS avg_bandwidth_bytes_per_s
FROM mindspore_hccl_link AS l
JOIN source AS s ON s.id = l.source_id AND s.status = 'ok'
GROUP BY s.run_id, l.rank_id, l.src_rank, l.dst_rank, l.link_type
