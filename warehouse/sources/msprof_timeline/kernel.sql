-- The device tasks of an msprof timeline as kernels: the "Ascend Hardware" slices with a
-- 'Task Type', except those on the streams HCCL's tasks run on (communication_task holds them).
-- Their other args (Batch Id, Aicore Time, Total Cycle) go to metrics; the model classifies them.
WITH
-- include: _tracks
INSERT INTO kernel (source_id, source_row, origin, rank_id, device_id, task_id, stream_id, name, task_type,
                    ts, dur, metrics, slice_id)
SELECT
    :source_id, k.source_row, 'msprof_timeline', :rank_id, :device_id,
    json_extract(k.args, '$."Task Id"'), json_extract(k.args, '$."Stream Id"'), n.value,
    json_extract(k.args, '$."Task Type"'), k.ts, k.dur,
    nullif(json_remove(k.args, '$."Task Type"', '$."Stream Id"', '$."Task Id"'), '{}'), k.id
FROM track AS k
LEFT JOIN string AS n ON n.id = k.name_id
WHERE k.process_name = 'Ascend Hardware'
  AND json_extract(k.args, '$."Task Type"') IS NOT NULL
  AND coalesce(json_extract(k.args, '$."Stream Id"'), -1) NOT IN (SELECT stream_id FROM hccl_stream)
ORDER BY k.id
