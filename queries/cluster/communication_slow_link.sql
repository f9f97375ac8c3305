-- title: Slow links (msprof-analyze slow_link)
-- description: Bandwidth of every link of each run (source rank, destination rank, transport,
--     link type) from the HCCL device tasks with their slice times, against the median
--     bandwidth of the run's links of the same transport and link type; a link is flagged
--     when it reaches less than threshold times that median. Tasks without a peer (rank
--     4294967295) are left out.
-- param run_id (integer, default null): Only this run; every run when null.
-- param threshold (real, default 0.8): Fraction of the median bandwidth under which a link is flagged.
-- column run_id: Run.
-- column src_rank: Sending rank.
-- column dst_rank: Receiving rank.
-- column transport_type: Transport, e.g. SDMA or RDMA.
-- column link_type: Link, e.g. HCCS, PCIE, ROCE or ON_CHIP.
-- column total_bytes: Bytes moved over the link.
-- column total_ns: Time of the tasks moving them, in ns.
-- column bandwidth_bytes_per_s: total_bytes / total_ns in bytes/s.
-- column median_bytes_per_s: Median bandwidth of the run's links of the same transport and link type, in bytes/s.
-- column ratio: bandwidth / median.
-- column flagged: 1 when ratio < threshold, else 0.
with tasks as (
    select r.run_id, t.src_rank, t.dst_rank, t.transport_type, t.link_type, t.size_bytes, s.dur
    from communication_task as t
    join source as r on r.id = t.source_id
    join _slice as s on s.id = t.slice_id
    where t.size_bytes > 0 and s.dur > 0 and t.src_rank <> 4294967295 and t.dst_rank <> 4294967295
        and (:run_id is null or r.run_id = :run_id)
),

links as (
    select
        run_id, src_rank, dst_rank, transport_type, link_type,
        sum(size_bytes) as total_bytes,
        sum(dur) as total_ns,
        1e9 * sum(size_bytes) / sum(dur) as bandwidth_bytes_per_s
    from tasks
    group by run_id, src_rank, dst_rank, transport_type, link_type
),

ranked as (
    select
        run_id, src_rank, dst_rank, transport_type, link_type, total_bytes, total_ns, bandwidth_bytes_per_s,
        row_number() over (
            partition by run_id, transport_type, link_type order by bandwidth_bytes_per_s
        ) as position,
        count(*) over (partition by run_id, transport_type, link_type) as n
    from links
),

medians as (
    select run_id, transport_type, link_type, avg(bandwidth_bytes_per_s) as median_bytes_per_s
    from ranked
    where 2 * position in (n, n + 1, n + 2)
    group by run_id, transport_type, link_type
),

final as (
    select
        r.run_id, r.src_rank, r.dst_rank, r.transport_type, r.link_type, r.total_bytes, r.total_ns,
        r.bandwidth_bytes_per_s, m.median_bytes_per_s,
        r.bandwidth_bytes_per_s / nullif(m.median_bytes_per_s, 0) as ratio,
        case when r.bandwidth_bytes_per_s < :threshold * m.median_bytes_per_s then 1 else 0 end as flagged
    from ranked as r
    join medians as m
        on m.run_id = r.run_id and m.transport_type = r.transport_type and m.link_type = r.link_type
)

select
    run_id, src_rank, dst_rank, transport_type, link_type, total_bytes, total_ns, bandwidth_bytes_per_s,
    median_bytes_per_s, ratio, flagged
from final
order by run_id, transport_type, link_type, ratio, src_rank, dst_rank
