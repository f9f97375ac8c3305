-- description: The HCCL operators of each rank no kernel input answers (answer_source: no rank
--     db, kernel_details.csv nor op_summary) or whose kernel input holds part of them only
--     (hccl_summary_rank), as the profiler's communication summary answering
--     the rank lists them (communication_time_answer: analysis.db CommAnalyzerTime, else
--     communication.json, else cluster_communication.json): one row per operator call, its start
--     and Elapse Time, the 'Total Op Info' rows left out. A rank a kernel input answers keeps that
--     input's operators alone (hccl_operator); the summary's only rank (a torch_npu rank folder
--     written without kernel_details.csv) has its operators from the summary, in hccl_operator and
--     kernel_step.
-- column run_id: Run.
-- column rank_id: Rank the operator ran on (-1 when unknown).
-- column step_id: Step the summary files it under (step50 -> 50).
-- column name: Operator name (the key before '@'), e.g. hcom_allReduce__586_0_1.
-- column ts: Start in ns (Start Timestamp(us)).
-- column dur: Duration in ns (Elapse Time(ms)).
-- column source_id: Input the row came from.
-- column source_row: Ordinal of the operator entry in the file.
-- column row_id: Its row in communication_time (its rowid).
SELECT t.run_id, t.rank_id, t.step_id, t.op_name AS name, t.ts, t.elapse_ns AS dur, t.source_id, t.source_row, t.row_id
FROM communication_time_answer AS t
JOIN hccl_summary_rank AS r ON r.run_id = t.run_id AND r.rank_id IS t.rank_id
WHERE t.op_name <> 'Total Op Info'
