-- The HCCL tasks of an msprof timeline: the "HCCL" process's slices with a 'task type', on the
-- plane their thread is (tid N: "Plane N"), each given the operator (communication_op of this
-- source) whose slice holds its start, its end included (a plane's last Notify_Wait starts where
-- its operator ends); of two such operators the later started (SQLite's bare columns of max()).
-- Bandwidth GB/s -> bytes/s. The all-ones u64 notify id (no notify: 18446744073709551615) is beyond
-- SQLite's integer, and JSON reads it as a float: it is written 9223372036854775807, as the db
-- export writes the same id.
WITH
-- include: _tracks
, task AS (
    SELECT * FROM track WHERE process_name = 'HCCL' AND json_extract(args, '$."task type"') IS NOT NULL
),
holder AS (
    SELECT t.id AS task_slice, o.op_id, o.name, max(o.ts) AS op_ts
    FROM task AS t
    JOIN communication_op AS o ON o.source_id = :source_id AND o.ts <= t.ts AND t.ts <= o.ts + o.dur
    GROUP BY t.id
)
INSERT INTO communication_task (source_id, source_row, rank_id, name, task_type, plane_id, notify_id, src_rank,
                                dst_rank, transport_type, size_bytes, data_type, link_type, op_id,
                                bandwidth_bytes_per_s, slice_id)
SELECT
    :source_id, t.source_row, :rank_id, h.name, json_extract(t.args, '$."task type"'), CAST(t.tid AS INTEGER),
    CASE WHEN json_type(t.args, '$.notify_id') = 'real' AND json_extract(t.args, '$.notify_id') >= 9223372036854775807.0
         THEN 9223372036854775807 ELSE json_extract(t.args, '$.notify_id') END,
    json_extract(t.args, '$."src rank"'), json_extract(t.args, '$."dst rank"'),
    json_extract(t.args, '$."transport type"'), json_extract(t.args, '$."size(Byte)"'),
    json_extract(t.args, '$."data type"'), json_extract(t.args, '$."link type"'), h.op_id,
    json_extract(t.args, '$."bandwidth(GB/s)"') * 1e9, t.id
FROM task AS t
LEFT JOIN holder AS h ON h.task_slice = t.id
ORDER BY t.id
