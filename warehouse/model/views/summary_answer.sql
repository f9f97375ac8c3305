-- description: The input whose summary answers for each rank of each run, per fact
--     (fact_precedence applied to the inputs holding it: analysis.db before the text files
--     before the cluster files).
-- column run_id: Run the input belongs to (run.run_id).
-- column rank_id: Rank the file belongs to, when it says or its path does; NULL otherwise.
-- column fact: The fact: kernel (device operators), timeline (slices, steps), step_summary (the
--     profiler's step breakdown), communication_summary, communication_matrix, memory,
--     op_memory.
-- column source_id: Input the row came from (source.id).
-- column kind: Input format that read it (trace_json, rank_db, op_profile, ...); NULL when none
--     did.
WITH held AS (
    SELECT
        s.run_id, h.rank_id, h.fact, h.source_id, s.kind, p.precedence,
        min(p.precedence) OVER (PARTITION BY s.run_id, h.rank_id, h.fact) AS best
    FROM summary_holding AS h
    JOIN source AS s ON s.id = h.source_id AND s.status = 'ok'
    JOIN fact_precedence AS p ON p.fact = h.fact AND p.kind = s.kind
)
SELECT run_id, rank_id, fact, source_id, kind
FROM held
WHERE precedence = best
