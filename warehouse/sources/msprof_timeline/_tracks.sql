-- The source's slices with their process's name and their thread's tid (the msprof timeline's
-- track: "Ascend Hardware" stream N, "HCCL" plane N), and the HCCL streams: the streams the
-- HCCL process's tasks name ('stream id'), whose device tasks are those tasks, not kernels.
track AS (
    SELECT s.id, s.source_row, s.ts, s.dur, s.args, s.name_id, p.name AS process_name, t.tid, p.id AS process_id
    FROM _slice AS s
    JOIN thread AS t ON t.id = s.thread_id
    JOIN process AS p ON p.id = t.process_id
    WHERE s.source_id = :source_id
),
hccl_stream AS (
    SELECT DISTINCT json_extract(args, '$."stream id"') AS stream_id
    FROM track
    WHERE process_name = 'HCCL' AND json_extract(args, '$."stream id"') IS NOT NULL
)
