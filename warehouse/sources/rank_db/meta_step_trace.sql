-- reads: STEP_TIME
-- Which HCCL rows the step trace of the torch_npu that wrote the file measured Communication over
-- (analysis.db StepTraceTime), as the run fact stepTraceCommunication read by step_activity
-- (migration 0018). The files name no torch_npu version; the rank db's schema tells them apart:
-- torch_npu wrote no HOST_INFO before 6.0.rc2 and declared HOST_INFO.hostUid INTEGER until
-- 6.0.rc3 (October 2024), and its step trace measured the HCCL tasks (COMMUNICATION_TASK_INFO
-- joined to TASK); since 6.0.rc3 it declares hostUid TEXT and measures the HCCL operators
-- (COMMUNICATION_OP). Only the 6.0.0.alpha001 preview (October 2024) declared TEXT and still
-- measured tasks.
INSERT INTO run_metadata (source_id, rank_id, name, value)
SELECT
    :source_id, :rank_id, 'stepTraceCommunication',
    CASE WHEN EXISTS (
        SELECT 1 FROM pragma_table_info('HOST_INFO', 'rank_db_src') WHERE name = 'hostUid' AND upper(type) = 'TEXT'
    ) THEN 'operator' ELSE 'task' END;
