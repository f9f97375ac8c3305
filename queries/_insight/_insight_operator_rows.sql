-- Helper (included by insight_operators and insight_operator_groups, not a query itself): the
-- operators of one rank as MindStudio Insight's Operator module lists them, a CTE named
-- operators: the device compute kernels that answer for the rank (kernel_answer: the db export
-- and the text export of a rank alike), is_communication 0, and its HCCL operators
-- (hccl_operator, whichever export holds them), is_communication 1, with a duration each.
-- An HCCL operator's wait is the one its kernel_details.csv row gives; a rank db's
-- COMMUNICATION_OP keeps none. A kernel's row in kernel is kernel_id (insight_kernel_pmu reads its
-- PMU figures). Parameters :run_id and :rank_id name the rank.
operators as (
    select
        0 as is_communication, k.name, k.op_type, k.accelerator_core as acc_core, k.ts, k.dur, k.wait_ns,
        k.block_dim, k.input_shapes, k.input_dtypes, k.input_formats, k.output_shapes, k.output_dtypes,
        k.output_formats, k.id as kernel_id, k.task_id
    from kernel_answer as k
    where k.run_id = :run_id and k.rank_id = :rank_id and k.dur is not null
    union all
    select
        1 as is_communication, h.name, h.type_name as op_type, null as acc_core, h.ts, h.dur, w.wait_ns,
        null as block_dim, null as input_shapes, null as input_dtypes, null as input_formats,
        null as output_shapes, null as output_dtypes, null as output_formats, null as kernel_id, null as task_id
    from hccl_operator as h
    left join kernel as w on h.table_name = 'kernel' and w.id = h.row_id
    where h.run_id = :run_id and h.rank_id = :rank_id and h.dur is not null
)
