-- description: The input whose step rows answer for each rank of each run: of the inputs holding
--     step rows of the rank, the first by fact_precedence's fact step (a rank db, a trace,
--     msprof's timeline JSONs, msprof's step_trace_*.csv). Held, not only readable: an msprof db
--     holds no steps, so a PROF folder's steps are its step_trace_*.json's even beside its db.
-- column run_id: Run.
-- column rank_id: Rank (-1 when unknown).
-- column source_id: Input whose step rows answer (source.id).
-- column kind: Its kind.
WITH holding AS (
    SELECT DISTINCT source_id, rank_id FROM step
),
held AS (
    SELECT
        s.run_id, h.rank_id, h.source_id, s.kind, p.precedence,
        min(p.precedence) OVER (PARTITION BY s.run_id, h.rank_id) AS best
    FROM holding AS h
    JOIN source AS s ON s.id = h.source_id AND s.status = 'ok'
    JOIN fact_precedence AS p ON p.fact = 'step' AND p.kind = s.kind
    WHERE NOT EXISTS (SELECT 1 FROM source_twin AS t WHERE t.source_id = s.id)
)
SELECT run_id, rank_id, source_id, kind
FROM held
WHERE precedence = best
