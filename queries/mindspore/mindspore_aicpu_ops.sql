-- title: MindSpore AI CPU operators
-- description: Per run and MindSpore device, each AI CPU task as MindSpore's AI CPU parser tabulates it
--     (output_data_preprocess_aicpu_{device}.txt, the table MindInsight's AI CPU detail analyser reads):
--     numbered from 1 in the order of the records, with its operator type, total and dispatch time and
--     run start and end (the AI CPU's own ticks as written; the newer text table's decimal points to a
--     whole number, as its CSV copy's), from the input that answers (the raw
--     DATA_PREPROCESS.dev.AICPU file, its tasks with a Node record, else the table, else its CSV copy
--     aicpu_intermediate_{device}.csv: answer_source, fact aicpu_op; warehouse check's mindspore_aicpu_agrees
--     compares them), and each task's share of the device's AI CPU time.
-- param run_id (integer, default null): Only this run; every run when null.
-- param rank_id (integer, default null): Only this device; every device when null.
-- column run_id: Run.
-- column rank_id: Device.
-- column serial_number: The task's number, from 1.
-- column op_type: Operator type (node_type_name).
-- column total_ns: Total time in ns.
-- column dispatch_ns: Dispatch time in ns.
-- column run_start: Run start (the AI CPU's ticks).
-- column run_end: Run end (the AI CPU's ticks).
-- column share: total_ns / the device's AI CPU total time (the table's last line).
-- column source_kind: Kind of the input that answers (mindspore_aicpu_raw, mindspore_aicpu_txt, mindspore_aicpu_csv).
with tasks as (
    select
        a.run_id, o.rank_id, o.op_type, o.total_ns, o.dispatch_ns, o.run_start, o.run_end, a.kind as source_kind,
        row_number() over (partition by o.source_id order by o.source_row) as serial_number
    from mindspore_aicpu_op as o
    join answer_source as a on a.source_id = o.source_id and a.fact = 'aicpu_op'
    where not (a.kind = 'mindspore_aicpu_raw' and o.name is null)
        and (:run_id is null or a.run_id = :run_id) and (:rank_id is null or o.rank_id = :rank_id)
),

final as (
    select
        run_id, rank_id, serial_number, op_type, total_ns, dispatch_ns, run_start, run_end, source_kind,
        1.0 * total_ns / nullif(sum(total_ns) over (partition by run_id, rank_id), 0) as share
    from tasks
)

select run_id, rank_id, serial_number, op_type, total_ns, dispatch_ns, run_start, run_end, share, source_kind
from final
order by run_id, rank_id, serial_number
