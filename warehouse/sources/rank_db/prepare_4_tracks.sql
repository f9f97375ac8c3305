-- The timeline tracks: a thread per framework/CANN globalTid (pid = high 32 bits,
-- tid = low 32 bits), per device stream, per communication group.
INSERT INTO temp.rank_db_track (kind, key, pid, tid, process_name, thread_name)
SELECT 'python', g, CAST(g >> 32 AS TEXT), CAST(g & 4294967295 AS TEXT), 'Python', 'Thread ' || (g & 4294967295)
FROM (SELECT DISTINCT COALESCE(globalTid, 0) AS g FROM in_PYTORCH_API)
UNION ALL
SELECT 'cann', g, CAST(g >> 32 AS TEXT), CAST(g & 4294967295 AS TEXT), 'CANN', 'Thread ' || (g & 4294967295)
FROM (SELECT DISTINCT COALESCE(globalTid, 0) AS g FROM in_CANN_API)
UNION ALL
SELECT 'task', (d << 32) | s, CAST(d AS TEXT), CAST(s AS TEXT), 'Ascend Hardware', 'Stream ' || s
FROM (SELECT DISTINCT COALESCE(deviceId, 0) AS d, COALESCE(streamId, 0) AS s FROM in_TASK)
UNION ALL
SELECT 'hccl', o.g, CAST(o.d AS TEXT), COALESCE(gs.value, CAST(o.g AS TEXT)), 'HCCL', 'Group ' || COALESCE(gs.value, o.g)
FROM (
    SELECT COALESCE(groupName, -1) AS g, COALESCE(MIN(deviceId), :device_id, -1) AS d
    FROM in_COMMUNICATION_OP GROUP BY COALESCE(groupName, -1)
) AS o
LEFT JOIN in_STRING_IDS AS gs ON gs.id = o.g;
