-- A kernel's op_class, when set, is one of the classes of seed 004 and issue 16: aic, aiv, mix_cv,
-- aicpu, dsa (compute), mix_comm_aiv, communication, memory (data movement) or other.
SELECT id, name, op_type, task_type, op_class, source_id, source_row
FROM kernel
WHERE op_class IS NOT NULL
  AND op_class NOT IN ('aic', 'aiv', 'mix_cv', 'mix_comm_aiv', 'communication', 'aicpu', 'dsa', 'memory', 'other')
