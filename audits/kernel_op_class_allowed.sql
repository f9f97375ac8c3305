-- A kernel's op_class, when set, is a class the classification gives (seed 004, issue 16): one of
-- kernel_core_classes.csv (loaded into kernel_core_class), or mix_comm_aiv, the class classify.sql
-- gives a communication kernel with AIV time.
SELECT id, name, op_type, task_type, op_class, source_id, source_row
FROM kernel
WHERE op_class IS NOT NULL
  AND op_class NOT IN (SELECT op_class FROM kernel_core_class)
  AND op_class <> 'mix_comm_aiv'
