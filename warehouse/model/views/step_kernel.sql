-- description: Every answering kernel of a step (kernel_step: the profiler's rule), with its
--     kernel row's fields: the unit of the per-step rules; is_compute is its class's (op_class).
-- column run_id: Run.
-- column step_id: The kernel's step (kernel_step).
-- column rank_id: Rank the kernel ran on (-1 when unknown).
-- column kernel_id: The kernel row (kernel.id).
-- column source_id: Input the row came from.
-- column source_row: Row in the input: CSV data line number (1 = first line after the header)
--     or the db's TASK rowid.
-- column slice_id: Device task slice of this kernel on the timeline, when the input has one.
-- column name: Kernel name (Name / Op Name).
-- column op_type: Operator type (Type / OP Type / opType).
-- column op_class: Class (seed 004): aic, aiv, mix_cv, mix_comm_aiv, communication or aicpu.
-- column category: Category from the kernel-signature table (e.g. attention.flash_score,
--     moe.dispatch, compute.matmul).
-- column bound_stage: The pipeline sub-stage with the most time (mac, fixpipe, aic_mte1,
--     aic_mte2, aic_scalar, vec, aiv_mte2, aiv_mte3, aiv_scalar).
-- column bound_family: The pipeline family with the most time (cube, vector, aic_mte, aiv_mte,
--     scalar).
-- column input_shapes: Input shapes, as given (e.g. '32,3,224,224;64').
-- column ts: Start time in ns.
-- column dur: Duration in ns.
-- column is_compute: 1 for a compute class (op_class.is_compute), 0 for the others and for
--     unclassified tasks.
SELECT
    ks.run_id, ks.step_id, k.rank_id, k.id AS kernel_id, k.source_id, k.source_row, k.slice_id, k.name, k.op_type,
    k.op_class, k.category, k.bound_stage, k.bound_family, k.input_shapes, k.ts, k.dur,
    coalesce(c.is_compute, 0) AS is_compute
FROM kernel_step AS ks
JOIN kernel AS k ON k.id = ks.row_id
LEFT JOIN op_class AS c ON c.op_class = k.op_class
WHERE ks.table_name = 'kernel' AND ks.step_id IS NOT NULL
