-- Helper (included by hccl_operator, communication_time_answer and communication_bandwidth_answer,
-- not a view itself): the type of an HCCL operator named op_name, its name less the instance
-- suffix ('hcom_allReduce__868_0_1' -> 'hcom_allReduce_'), or the whole name when it has none.
coalesce(CASE WHEN instr(op_name, '__') > 0 THEN substr(op_name, 1, instr(op_name, '__')) END, op_name)
