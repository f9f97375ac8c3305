-- The training steps a trace marks: torch profilers wrap each step in a slice named
-- 'ProfilerStep#N' (on the Python thread, and again where other tracks repeat it); a step
-- spans from the first of them to the end of the last. Reads only this load's slices (an id
-- range) carrying one of the step names it interned (the JSON array :name_ids).
INSERT INTO step (rank_id, step_id, start_ns, end_ns, source_id)
SELECT
    :rank_id,
    CAST(substr(n.value, 14) AS INTEGER),
    min(s.ts),
    max(s.ts + s.dur),
    :source_id
FROM _slice AS s
JOIN string AS n ON n.id = s.name_id
WHERE s.id >= :first_id
  AND s.name_id IN (SELECT value FROM json_each(:name_ids))
GROUP BY CAST(substr(n.value, 14) AS INTEGER);
