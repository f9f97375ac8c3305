-- reads: MEMCPY_INFO
-- MEMCPY_INFO: the bytes and direction of each memory copy task, with the direction's name from
-- ENUM_MEMCPY_OPERATION (NULL when the file has no name of that number) and the device slice of its
-- TASK row.
INSERT INTO memcpy_task (source_id, source_row, rank_id, global_task_id, size_bytes, operation_id, operation, slice_id)
SELECT
    :source_id, m._row, :rank_id, m.globalTaskId, m.size, m.memcpyOperation, o.name,
    :base_task + t.row
FROM in_MEMCPY_INFO AS m
LEFT JOIN (SELECT globalTaskId, MIN(_row) AS row FROM in_TASK GROUP BY globalTaskId) AS t
    ON t.globalTaskId = m.globalTaskId
LEFT JOIN in_ENUM_MEMCPY_OPERATION AS o ON o.id = m.memcpyOperation;
