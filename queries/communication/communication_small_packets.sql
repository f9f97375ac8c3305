-- title: Small packets per transport (communication advice)
-- description: Per run and transport (SDMA, RDMA, HCCS, ...), how many of the ranks' HCCL operator
--     transfers move less than a small size, their share and their time: over SDMA and RDMA,
--     MindStudio Insight's "Packet Analysis" advice of the Communication page (communication/advisor;
--     server PacketAnalyzer.cpp: small below 16 MB over SDMA, 1 MB over RDMA, an issue above 20 % of
--     the transfers; another transport is measured against small_mb), over the communication
--     summaries' transports (communication_op_transports' rows: communication_bandwidth_answer,
--     'Total Op Info' left out) that move any byte.
-- param run_id (integer, default null): Only this run; every run when null.
-- param sdma_small_mb (real, default 16): Below this many MB (10^6 bytes) an SDMA transfer is small.
-- param rdma_small_mb (real, default 1): Below this many MB (10^6 bytes) an RDMA transfer is small.
-- param small_mb (real, default 16): Below this many MB (10^6 bytes) a transfer over another transport is small.
-- column run_id: Run.
-- column transport_type: Transport type.
-- column transfers: Number of operator transfers over the transport that move any byte.
-- column small_transfers: Number of them below the small size.
-- column small_ratio: small_transfers / transfers.
-- column small_ms: The small transfers' time in ms.
with transfers as (
    select
        run_id, transport_type, transit_ns,
        case
            when transport_type = 'SDMA' then transit_bytes < :sdma_small_mb * 1000000
            when transport_type = 'RDMA' then transit_bytes < :rdma_small_mb * 1000000
            else transit_bytes < :small_mb * 1000000
        end as small
    from communication_bandwidth_answer
    where
        op_name <> 'Total Op Info' and transit_bytes > 0
        and (:run_id is null or run_id = :run_id)
),

final as (
    select
        run_id, transport_type, count(*) as transfers,
        sum(case when small then 1 else 0 end) as small_transfers,
        1.0 * sum(case when small then 1 else 0 end) / count(*) as small_ratio,
        coalesce(sum(case when small then transit_ns end), 0) / 1000000.0 as small_ms
    from transfers
    group by run_id, transport_type
)

select run_id, transport_type, transfers, small_transfers, small_ratio, small_ms
from final
order by run_id, transport_type
