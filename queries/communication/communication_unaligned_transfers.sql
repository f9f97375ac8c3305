-- title: Unaligned SDMA transfers per HCCL operator (communication advice)
-- description: Per run, rank and HCCL operator (a communication_op named hcom...), how many of its
--     Memcpy and Reduce tasks move over SDMA, off chip (link type not ON_CHIP), more than small_bytes
--     and a size that is no multiple of base_bytes: MindStudio Insight's "Byte Alignment Analysis"
--     advice of the Communication page (communication/advisor; server ByteAlignmentAnalyzer.cpp:
--     512-byte alignment of transfers above 512 bytes; the tasks of the trace database,
--     COMMUNICATION_TASK_INFO with its operator's name). Tasks are the communication_task rows of
--     the input that answers the rank's timeline; only operators with at least one such task are
--     listed, ranks in the order of their text (as the server's map of rank ids), operators by name.
-- param run_id (integer, default null): Only this run; every run when null.
-- param small_bytes (integer, default 512): A transfer of at most this many bytes is not checked.
-- param base_bytes (integer, default 512): A checked transfer is aligned when its size is a multiple of this.
-- column run_id: Run.
-- column rank_id: Rank.
-- column op_name: HCCL operator name, e.g. hcom_allReduce__210_0_1.
-- column unaligned_tasks: Number of its checked Memcpy / Reduce tasks whose size is not aligned.
-- column unaligned_bytes: Bytes those tasks move.
with operators as (
    select distinct o.source_id, o.name
    from communication_op as o
    where substr(o.name, 1, 4) = 'hcom'
),

unaligned as (
    select a.run_id, t.rank_id, t.name as op_name, t.size_bytes
    from communication_task as t
    join answer_source as a on a.source_id = t.source_id and a.fact = 'timeline'
    join operators as o on o.source_id = t.source_id and o.name = t.name
    where substr(t.task_type, 1, 6) in ('Memcpy', 'Reduce')
        and t.transport_type = 'SDMA' and coalesce(t.link_type, '') <> 'ON_CHIP'
        and t.size_bytes > :small_bytes and t.size_bytes % :base_bytes > 0
        and (:run_id is null or a.run_id = :run_id)
),

final as (
    select run_id, rank_id, op_name, count(*) as unaligned_tasks, sum(size_bytes) as unaligned_bytes
    from unaligned
    group by run_id, rank_id, op_name
)

select run_id, rank_id, op_name, unaligned_tasks, unaligned_bytes
from final
order by run_id, cast(rank_id as text), op_name
