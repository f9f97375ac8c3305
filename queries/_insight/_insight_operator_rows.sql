-- Helper (included by insight_operators and insight_operator_groups, not a query itself): the
-- operators of one rank as MindStudio Insight's Operator module lists them, a CTE named
-- operators: the device compute kernels that answer for the rank (kernel_answer: the db export
-- and the text export of a rank alike), is_communication 0, and its HCCL operators
-- (hccl_operator, whichever export holds them), is_communication 1, with a duration each.
-- An HCCL operator's wait is the one its kernel_details.csv row gives; a rank db's
-- COMMUNICATION_OP keeps none. A kernel's PMU figures (kernel_answer's columns from aicore_ns to
-- cube_utilization_pct, and metrics) come with the export it came from (origin); an HCCL operator
-- has none. Parameters :run_id and :rank_id name the rank.
operators as (
    select
        0 as is_communication, k.name, k.op_type, k.accelerator_core as acc_core, k.ts, k.dur, k.wait_ns,
        k.block_dim, k.input_shapes, k.input_dtypes, k.input_formats, k.output_shapes, k.output_dtypes,
        k.output_formats, k.origin,
        k.aicore_ns, k.aic_total_cycles, k.aic_mac_ns, k.aic_mac_ratio, k.aic_scalar_ns, k.aic_scalar_ratio,
        k.aic_mte1_ns, k.aic_mte1_ratio, k.aic_mte2_ns, k.aic_mte2_ratio, k.aic_fixpipe_ns,
        k.aic_fixpipe_ratio, k.aic_icache_miss_rate, k.aiv_ns, k.aiv_total_cycles, k.aiv_vec_ns,
        k.aiv_vec_ratio, k.aiv_scalar_ns, k.aiv_scalar_ratio, k.aiv_mte2_ns, k.aiv_mte2_ratio, k.aiv_mte3_ns,
        k.aiv_mte3_ratio, k.aiv_icache_miss_rate, k.cube_utilization_pct, k.metrics
    from kernel_answer as k
    where k.run_id = :run_id and k.rank_id = :rank_id and k.dur is not null
    union all
    select
        1 as is_communication, h.name, h.type_name as op_type, null as acc_core, h.ts, h.dur, w.wait_ns,
        null as block_dim, null as input_shapes, null as input_dtypes, null as input_formats,
        null as output_shapes, null as output_dtypes, null as output_formats, null as origin,
        null as aicore_ns, null as aic_total_cycles, null as aic_mac_ns, null as aic_mac_ratio,
        null as aic_scalar_ns, null as aic_scalar_ratio, null as aic_mte1_ns, null as aic_mte1_ratio,
        null as aic_mte2_ns, null as aic_mte2_ratio, null as aic_fixpipe_ns, null as aic_fixpipe_ratio,
        null as aic_icache_miss_rate, null as aiv_ns, null as aiv_total_cycles, null as aiv_vec_ns,
        null as aiv_vec_ratio, null as aiv_scalar_ns, null as aiv_scalar_ratio, null as aiv_mte2_ns,
        null as aiv_mte2_ratio, null as aiv_mte3_ns, null as aiv_mte3_ratio, null as aiv_icache_miss_rate,
        null as cube_utilization_pct, null as metrics
    from hccl_operator as h
    left join kernel as w on h.table_name = 'kernel' and w.id = h.row_id
    where h.run_id = :run_id and h.rank_id = :rank_id and h.dur is not null
)
