-- title: SDMA transfers slowed beside MatMul kernels (communication advice)
-- description: Per run and rank, the HCCL operators whose SDMA transfer runs while a MatMul kernel of
--     the rank runs (both spans closed: one ends no earlier than the other starts) and reaches less
--     than threshold_gb_s: MindStudio Insight's "Bandwidth Contention Analysis" advice of the
--     Communication page (communication/advisor; server BandwidthContentionAnalyzer.cpp: under
--     14.4 GB/s; its walk over both lists by start finds the transfers that meet any MatMul). A
--     transfer is an SDMA row of the communication summary that answers the rank
--     (communication_bandwidth_answer, moving any byte) with its operator's start and elapse
--     (communication_time_answer of the same step, group, rank and operator); a MatMul is a kernel
--     answering the rank whose name contains 'matmul' in any case (kernel_answer). Ranks in the
--     order of their text (the server's map of rank ids), transfers by start.
-- param run_id (integer, default null): Only this run; every run when null.
-- param threshold_gb_s (real, default 14.4): Below this bandwidth (GB/s, 10^9 bytes) a transfer beside a MatMul is listed.
-- column run_id: Run.
-- column rank_id: Rank.
-- column step_id: Step number.
-- column op_name: HCCL operator name.
-- column start_ns: The operator's start in ns.
-- column elapse_ns: The operator's elapsed time in ns.
-- column bandwidth_bytes_per_s: The SDMA bandwidth in bytes/s as the summary states it.
-- column matmuls: Number of the rank's MatMul kernels the operator meets.
with transfers as (
    select b.run_id, b.rank_id, b.step_id, b.op_name, t.ts as start_ns, t.elapse_ns, b.bandwidth_bytes_per_s
    from communication_bandwidth_answer as b
    join communication_time_answer as t
        on t.run_id = b.run_id and t.rank_id = b.rank_id and t.step_id is b.step_id
        and t.group_name is b.group_name and t.op_name = b.op_name
    where b.transport_type = 'SDMA' and b.transit_bytes > 0
        and b.bandwidth_bytes_per_s < :threshold_gb_s * 1e9
        and (:run_id is null or b.run_id = :run_id)
),

matmuls as (
    select run_id, rank_id, ts, dur
    from kernel_answer
    where name like '%matmul%' and (:run_id is null or run_id = :run_id)
),

final as (
    select
        t.run_id, t.rank_id, t.step_id, t.op_name, t.start_ns, t.elapse_ns, t.bandwidth_bytes_per_s,
        count(*) as matmuls
    from transfers as t
    join matmuls as m
        on m.run_id = t.run_id and m.rank_id = t.rank_id
        and m.ts <= t.start_ns + t.elapse_ns and t.start_ns <= m.ts + m.dur
    group by t.run_id, t.rank_id, t.step_id, t.op_name, t.start_ns, t.elapse_ns, t.bandwidth_bytes_per_s
)

select run_id, rank_id, step_id, op_name, start_ns, elapse_ns, bandwidth_bytes_per_s, matmuls
from final
order by run_id, cast(rank_id as text), start_ns, op_name
