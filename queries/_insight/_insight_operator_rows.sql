-- Helper (included by insight_operators and insight_operator_groups, not a query itself): the
-- operators of one rank as MindStudio Insight's Operator module lists them, a CTE named
-- operators: the device compute kernels that answer for the rank (kernel_answer: the db export
-- and the text export of a rank alike), is_communication 0, and its HCCL operators
-- (hccl_operator, whichever export holds them), is_communication 1, with a duration each.
-- An HCCL operator's wait is the one its kernel_details.csv row gives; a rank db's
-- COMMUNICATION_OP keeps none. A kernel's PMU figures come with the export it came from (origin):
-- kernel_answer's columns from aicore_ns to cube_utilization_pct as one JSON object (pmu), and
-- metrics; an HCCL operator has none. Parameters :run_id and :rank_id name the rank.
operators as (
    select
        0 as is_communication, k.name, k.op_type, k.accelerator_core as acc_core, k.ts, k.dur, k.wait_ns,
        k.block_dim, k.input_shapes, k.input_dtypes, k.input_formats, k.output_shapes, k.output_dtypes,
        k.output_formats, k.origin,
        json_object(
            'aicore_ns', k.aicore_ns, 'aic_total_cycles', k.aic_total_cycles, 'aic_mac_ns', k.aic_mac_ns,
            'aic_mac_ratio', k.aic_mac_ratio, 'aic_scalar_ns', k.aic_scalar_ns,
            'aic_scalar_ratio', k.aic_scalar_ratio, 'aic_mte1_ns', k.aic_mte1_ns,
            'aic_mte1_ratio', k.aic_mte1_ratio, 'aic_mte2_ns', k.aic_mte2_ns,
            'aic_mte2_ratio', k.aic_mte2_ratio, 'aic_fixpipe_ns', k.aic_fixpipe_ns,
            'aic_fixpipe_ratio', k.aic_fixpipe_ratio, 'aic_icache_miss_rate', k.aic_icache_miss_rate,
            'aiv_ns', k.aiv_ns, 'aiv_total_cycles', k.aiv_total_cycles, 'aiv_vec_ns', k.aiv_vec_ns,
            'aiv_vec_ratio', k.aiv_vec_ratio, 'aiv_scalar_ns', k.aiv_scalar_ns,
            'aiv_scalar_ratio', k.aiv_scalar_ratio, 'aiv_mte2_ns', k.aiv_mte2_ns,
            'aiv_mte2_ratio', k.aiv_mte2_ratio, 'aiv_mte3_ns', k.aiv_mte3_ns,
            'aiv_mte3_ratio', k.aiv_mte3_ratio, 'aiv_icache_miss_rate', k.aiv_icache_miss_rate,
            'cube_utilization_pct', k.cube_utilization_pct
        ) as pmu,
        k.metrics
    from kernel_answer as k
    where k.run_id = :run_id and k.rank_id = :rank_id and k.dur is not null
    union all
    select
        1 as is_communication, h.name, h.type_name as op_type, null as acc_core, h.ts, h.dur, w.wait_ns,
        null as block_dim, null as input_shapes, null as input_dtypes, null as input_formats,
        null as output_shapes, null as output_dtypes, null as output_formats, null as origin, null as pmu,
        null as metrics
    from hccl_operator as h
    left join kernel as w on h.table_name = 'kernel' and w.id = h.row_id
    where h.run_id = :run_id and h.rank_id = :rank_id and h.dur is not null
)
