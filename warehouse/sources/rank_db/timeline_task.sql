-- reads: TASK
-- Device tasks as slices on their stream: named by kernel (COMPUTE_TASK_INFO) or
-- communication operator (COMMUNICATION_TASK_INFO), else by task type; category = task type.
INSERT INTO _slice (id, thread_id, ts, dur, name_id, category_id, args, source_id, source_row)
SELECT
    :base_task + t._row,
    m.thread_id,
    CAST(t.startNs AS INTEGER),
    CAST(t.endNs AS INTEGER) - CAST(t.startNs AS INTEGER),
    COALESCE(kn.string_id, cn.string_id, tn.string_id),
    tn.string_id,
    json_object('global_task_id', t.globalTaskId, 'task_id', t.taskId, 'connection_id', t.connectionId),
    :source_id,
    t._row
FROM in_TASK AS t
JOIN temp.rank_db_thread AS m
    ON m.kind = 'task' AND m.key = (COALESCE(t.deviceId, 0) << 32) | COALESCE(t.streamId, 0)
LEFT JOIN in_COMPUTE_TASK_INFO AS k ON k.globalTaskId = t.globalTaskId
LEFT JOIN (
    SELECT globalTaskId, MIN(name) AS name FROM in_COMMUNICATION_TASK_INFO GROUP BY globalTaskId
) AS ct ON ct.globalTaskId = t.globalTaskId
LEFT JOIN temp.rank_db_name AS kn ON kn.src_id = k.name
LEFT JOIN temp.rank_db_name AS cn ON cn.src_id = ct.name
LEFT JOIN temp.rank_db_name AS tn ON tn.src_id = t.taskType;
