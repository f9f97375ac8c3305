-- The slices a connection id leads to: CANN API calls, device tasks, communication operators.
INSERT INTO temp.rank_db_target (connection_id, slice_id, name)
SELECT connectionId, :base_cann_api + _row, 'torch_to_cann' FROM in_CANN_API WHERE connectionId IS NOT NULL
UNION ALL
SELECT connectionId, :base_task + _row, 'torch_to_npu' FROM in_TASK WHERE connectionId IS NOT NULL
UNION ALL
SELECT connectionId, :base_communication_op + _row, 'torch_to_hccl'
FROM in_COMMUNICATION_OP WHERE connectionId IS NOT NULL;

-- The framework calls' connections (PYTORCH_API.connectionId -> CONNECTION_IDS.id, 1:n), in time order.
INSERT INTO temp.rank_db_link (connection_id, slice_id, ts)
SELECT c.connectionId, :base_pytorch_api + a._row, CAST(a.startNs AS INTEGER)
FROM in_PYTORCH_API AS a
JOIN in_CONNECTION_IDS AS c ON c.id = a.connectionId
WHERE c.connectionId IS NOT NULL
ORDER BY c.connectionId, 3, 2;
