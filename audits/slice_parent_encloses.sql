-- A slice's parent exists, is on the same thread and encloses it in time
-- (parent.ts <= ts and ts + dur <= parent.ts + parent.dur).
SELECT
    c.id,
    c.thread_id,
    c.ts,
    c.dur,
    c.parent_id,
    p.thread_id AS parent_thread_id,
    p.ts AS parent_ts,
    p.dur AS parent_dur,
    c.source_id
FROM _slice AS c
LEFT JOIN _slice AS p ON p.id = c.parent_id
WHERE c.parent_id IS NOT NULL
  AND (
      p.id IS NULL
      OR p.thread_id != c.thread_id
      OR c.ts < p.ts
      OR c.ts + c.dur > p.ts + p.dur
  )
