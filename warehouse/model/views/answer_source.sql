-- description: The inputs that answer each fact of each rank of each run (fact_precedence
--     applied; an input that is another's twin, the same capture exported twice, answers nothing:
--     source_twin).
-- column run_id: Run of the rank.
-- column rank_id: Rank (NULL for an input about a whole cluster, such as
--     cluster_step_trace_time.csv).
-- column fact: The fact (fact_precedence.fact).
-- column source_id: Input that answers it (source.id).
-- column kind: Its kind.
-- column precedence: Its precedence.
WITH held AS (
    SELECT
        s.run_id, s.rank_id, p.fact, s.id AS source_id, s.kind, p.precedence,
        min(p.precedence) OVER (PARTITION BY s.run_id, s.rank_id, p.fact) AS best
    FROM source AS s
    JOIN fact_precedence AS p ON p.kind = s.kind
    WHERE s.status = 'ok'
        AND NOT EXISTS (SELECT 1 FROM source_twin AS t WHERE t.source_id = s.id)
)
SELECT
    run_id,
    rank_id,
    fact,
    source_id,
    kind,
    precedence
FROM held
WHERE precedence = best
