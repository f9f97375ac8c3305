-- A synthetic cluster for bench/cluster_queries.py: :ranks ranks, :steps steps of 10 ms per rank,
-- :per_rank kernels per rank every 4 us (3 us long, every tenth a communication kernel) and an
-- HCCL operator every 1 ms on every rank (rank r starting it r * 1 us late).
-- One run, one rank db per rank (source id = rank + 1): the inputs that answer each rank's kernels and
-- steps (fact_precedence), as an ingest of real rank dbs records them.
INSERT INTO run (run_id, name, root, created_at)
VALUES (1, 'bench cluster', '/bench/cluster_queries', '2026-11-22T00:00:00+00:00');

WITH RECURSIVE r(rank) AS (SELECT 0 UNION ALL SELECT rank + 1 FROM r WHERE rank < :ranks - 1)
INSERT INTO source (id, path, kind, sha256, size_bytes, rank_id, status, ingested_at, run_id)
SELECT rank + 1, '/bench/cluster_queries/rank_' || rank || '.db', 'rank_db', 'bench' || rank, 0, rank, 'ok',
    '2026-11-22T00:00:00+00:00', 1
FROM r;

WITH RECURSIVE r(rank) AS (SELECT 0 UNION ALL SELECT rank + 1 FROM r WHERE rank < :ranks - 1),
s(step) AS (SELECT 0 UNION ALL SELECT step + 1 FROM s WHERE step < :steps - 1)
INSERT INTO step (rank_id, step_id, start_ns, end_ns, source_id)
SELECT rank, step, step * 10000000, (step + 1) * 10000000, rank + 1 FROM r CROSS JOIN s;

WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < :per_rank - 1),
r(rank) AS (SELECT 0 UNION ALL SELECT rank + 1 FROM r WHERE rank < :ranks - 1)
INSERT INTO kernel (source_id, origin, rank_id, name, op_type, ts, dur, op_class)
SELECT rank + 1, 'synthetic', rank, 'kernel_' || (i % 40), 'Type' || (i % 12), i * 4000, 3000 + (i * 7919) % 500,
    CASE WHEN i % 10 = 0 THEN 'communication' ELSE 'aic' END
FROM r CROSS JOIN k
ORDER BY rank, i;

WITH RECURSIVE o(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM o WHERE i < :per_rank * 4 / 1000 - 1),
r(rank) AS (SELECT 0 UNION ALL SELECT rank + 1 FROM r WHERE rank < :ranks - 1)
INSERT INTO communication_op (source_id, rank_id, name, op_type, group_name, ts, dur)
SELECT rank + 1, rank, 'hcom_allReduce__' || i, 'hcom_allReduce_', 'group', i * 1000000 + rank * 1000, 200000
FROM r CROSS JOIN o;
