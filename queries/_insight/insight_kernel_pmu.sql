-- title: Insight kernel PMU
-- description: One kernel's PMU figures and the export they came from, which names them
--     (MindStudio Insight's Operator table shows them as columns: service/insight/pmu.py).
-- param kernel_id (integer, required): The kernel (kernel.id).
-- column origin: Export the kernel came from (rank_db, kernel_details_csv, op_summary_csv).
-- column pmu: The kernel's columns aicore_ns to cube_utilization_pct as a JSON object keyed by
--     column name (null for those its export does not give).
-- column metrics: Its other PMU figures, as a JSON object named as its export names them.
with final as (
    select
        k.origin,
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
    from kernel as k
    where k.id = :kernel_id
)

select origin, pmu, metrics
from final
