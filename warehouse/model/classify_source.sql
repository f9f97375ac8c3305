-- The rows classify_source classifies (classify.sql's KERNEL_ROW): a source's kernel rows, what the rules
-- read of them and their id, by which the UPDATE writes their classes. Parameter :source_id.
SELECT
    id, origin, slice_id, name, op_type, accelerator_core, task_type, aiv_ns, aic_mac_ns, aic_fixpipe_ns,
    aic_mte1_ns, aic_mte2_ns, aic_scalar_ns, aiv_vec_ns, aiv_mte2_ns, aiv_mte3_ns, aiv_scalar_ns
FROM kernel
WHERE source_id = :source_id
