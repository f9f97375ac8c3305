-- title: Interconnect bandwidth
-- description: Per run, rank and device, the sampled receive and transmit rates of one kind of
--     link: roce and nic (rxByteRate/txByteRate), hccs (rx/txThroughput) or pcie (posted
--     rx/tx average), all in bytes/s.
-- param run_id (integer, default null): Only this run; every run when null.
-- param kind (text, default 'roce', one of roce|nic|hccs|pcie): Which link.
-- param rank_id (integer, default null): Only this rank; every rank when null.
-- column run_id: Run.
-- column kind: The link kind asked for.
-- column rank_id: Rank.
-- column device_id: NPU device id.
-- column samples: Number of samples.
-- column avg_rx_bytes_per_s: Mean receive rate in bytes/s.
-- column max_rx_bytes_per_s: Highest receive rate in bytes/s.
-- column avg_tx_bytes_per_s: Mean transmit rate in bytes/s.
-- column max_tx_bytes_per_s: Highest transmit rate in bytes/s.
with samples as (
    select 'roce' as kind, source_id, rank_id, device_id, rx_byte_rate as rx, tx_byte_rate as tx from roce
    union all
    select 'nic' as kind, source_id, rank_id, device_id, rx_byte_rate as rx, tx_byte_rate as tx from nic
    union all
    select 'hccs' as kind, source_id, rank_id, device_id, rx_throughput as rx, tx_throughput as tx from hccs
    union all
    select 'pcie' as kind, source_id, rank_id, device_id, rx_post_avg as rx, tx_post_avg as tx from pcie
),

final as (
    select
        s.run_id,
        x.kind,
        x.rank_id,
        x.device_id,
        count(*) as samples,
        avg(x.rx) as avg_rx_bytes_per_s,
        max(x.rx) as max_rx_bytes_per_s,
        avg(x.tx) as avg_tx_bytes_per_s,
        max(x.tx) as max_tx_bytes_per_s
    from samples as x
    join source as s on s.id = x.source_id
    where x.kind = :kind and (:run_id is null or s.run_id = :run_id) and (:rank_id is null or x.rank_id = :rank_id)
    group by s.run_id, x.kind, x.rank_id, x.device_id
)

select
    run_id, kind, rank_id, device_id, samples,
    avg_rx_bytes_per_s, max_rx_bytes_per_s, avg_tx_bytes_per_s, max_tx_bytes_per_s
from final
order by run_id, rank_id, device_id
