-- Stage 1, in the scratch warehouse: the rank's kernels (staged_kernel_row, staged_kernels.sql) as kernel
-- rows, for the views that read them: every one when the rank's step breakdown is derived
-- (step_breakdown, :every_row 1), else the communication ones alone, the only kernels hccl_operator
-- reads (hccl_total). Parameters :source_id, :rank_id, :every_row.
INSERT INTO kernel (source_id, origin, rank_id, step_id, name, op_type, op_class, ts, dur)
SELECT :source_id, 'rank_db', :rank_id, step_id, name, op_type, op_class, ts, dur
FROM temp.staged_kernel_row
WHERE :every_row OR op_class = 'communication';
