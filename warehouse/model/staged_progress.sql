-- What stage 2 of `warehouse ingest --answers-first` still owes, per run: ranks complete (every
-- input of the rank in whole), ranks with first answers only, files reserved with nothing in
-- yet, and staged files whose full ingest failed (they keep their first answers; source.error).
SELECT
    r.run_id,
    r.name,
    count(DISTINCT CASE WHEN s.stage IS NULL AND s.rank_id IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM source AS o WHERE o.run_id = s.run_id AND o.rank_id = s.rank_id AND o.stage IS NOT NULL
    ) THEN s.rank_id END) AS ranks_complete,
    count(DISTINCT CASE WHEN s.stage = 'answers' THEN s.rank_id END) AS ranks_staged,
    sum(s.stage = 'pending') AS files_pending,
    sum(s.stage IS NOT NULL AND s.error IS NOT NULL) AS stage2_failed
FROM run AS r
JOIN source AS s ON s.run_id = r.run_id AND s.status = 'ok'
GROUP BY r.run_id, r.name
HAVING sum(s.stage IS NOT NULL) > 0
ORDER BY r.run_id
