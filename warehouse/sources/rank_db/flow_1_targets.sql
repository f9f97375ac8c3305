-- The slices a connection id leads to: CANN API calls, device tasks, communication operators.
INSERT INTO temp.rank_db_target (connection_id, slice_id, name)
SELECT connectionId, :base_cann_api + _row, 'torch_to_cann' FROM in_CANN_API WHERE connectionId IS NOT NULL
UNION ALL
SELECT connectionId, :base_task + _row, 'torch_to_npu' FROM in_TASK WHERE connectionId IS NOT NULL
UNION ALL
SELECT connectionId, :base_communication_op + _row, 'torch_to_hccl'
FROM in_COMMUNICATION_OP WHERE connectionId IS NOT NULL;
