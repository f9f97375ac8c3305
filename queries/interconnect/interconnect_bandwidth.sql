-- title: Interconnect bandwidth
-- description: Per rank and device, the sampled receive and transmit rates of one kind of
--     link: roce and nic (rxByteRate/txByteRate), hccs (rx/txThroughput) or pcie (posted
--     rx/tx average), all in bytes/s.
-- param kind (text, default 'roce', one of roce|nic|hccs|pcie): Which link.
-- param rank_id (integer, default null): Only this rank; every rank when null.
-- column kind: The link kind asked for.
-- column rank_id: Rank.
-- column device_id: NPU device id.
-- column samples: Number of samples.
-- column avg_rx_bytes_per_s: Mean receive rate in bytes/s.
-- column max_rx_bytes_per_s: Highest receive rate in bytes/s.
-- column avg_tx_bytes_per_s: Mean transmit rate in bytes/s.
-- column max_tx_bytes_per_s: Highest transmit rate in bytes/s.
with samples as (
    select 'roce' as kind, rank_id, device_id, rx_byte_rate as rx, tx_byte_rate as tx from roce
    union all
    select 'nic' as kind, rank_id, device_id, rx_byte_rate as rx, tx_byte_rate as tx from nic
    union all
    select 'hccs' as kind, rank_id, device_id, rx_throughput as rx, tx_throughput as tx from hccs
    union all
    select 'pcie' as kind, rank_id, device_id, rx_post_avg as rx, tx_post_avg as tx from pcie
),

final as (
    select
        kind,
        rank_id,
        device_id,
        count(*) as samples,
        avg(rx) as avg_rx_bytes_per_s,
        max(rx) as max_rx_bytes_per_s,
        avg(tx) as avg_tx_bytes_per_s,
        max(tx) as max_tx_bytes_per_s
    from samples
    where kind = :kind and (:rank_id is null or rank_id = :rank_id)
    group by kind, rank_id, device_id
)

select
    kind, rank_id, device_id, samples,
    avg_rx_bytes_per_s, max_rx_bytes_per_s, avg_tx_bytes_per_s, max_tx_bytes_per_s
from final
order by rank_id, device_id
