-- Every slice has a duration of zero or more (a negative one is a parser's sign error).
SELECT id, thread_id, ts, dur, source_id, source_row
FROM _slice
WHERE dur < 0
