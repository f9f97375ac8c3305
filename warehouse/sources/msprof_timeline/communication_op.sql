-- The HCCL operators of an msprof timeline: the "HCCL" process's slices without a 'task type'
-- (its operator track; the planes hold the tasks). op_type is the operator's name without its
-- scope and number ('Default/AllReduce-op534_0': AllReduce); op_id is the slice's event number,
-- which communication_task.op_id refers to.
WITH
-- include: _tracks
, operator AS (
    SELECT o.*, replace(n.value, rtrim(n.value, replace(n.value, '/', '')), '') AS base, n.value AS name
    FROM track AS o
    JOIN string AS n ON n.id = o.name_id
    WHERE o.process_name = 'HCCL' AND json_extract(o.args, '$."task type"') IS NULL
)
INSERT INTO communication_op (source_id, source_row, rank_id, device_id, name, op_type, ts, dur, op_id, slice_id)
SELECT
    :source_id, source_row, :rank_id, :device_id, name,
    CASE WHEN instr(base, '-op') > 1 THEN substr(base, 1, instr(base, '-op') - 1) ELSE base END,
    ts, dur, source_row, id
FROM operator
ORDER BY id
