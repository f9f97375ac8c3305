-- Every kernel has a duration of zero or more, when it has one.
SELECT id, name, ts, dur, origin, source_id, source_row
FROM kernel
WHERE dur < 0
