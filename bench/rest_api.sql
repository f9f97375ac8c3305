-- A synthetic timeline for bench/rest_api.py: :threads threads of :per_thread slices each,
-- back to back every 1000 ns, durations 100..899 ns, 50 distinct names. Run in one transaction.
INSERT INTO source (id, path, kind, sha256, size_bytes, status, ingested_at)
VALUES (1, 'bench/rest_api.py', 'synthetic', 'bench', 0, 'ok', '2026-11-22T00:00:00+00:00');

INSERT INTO process (id, source_id, rank_id, pid, name) VALUES (1, 1, 0, '1', 'bench');

WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50)
INSERT INTO string (id, value) SELECT i, 'op_' || i FROM n;

WITH RECURSIVE t(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM t WHERE i < :threads)
INSERT INTO thread (id, process_id, source_id, tid, name, max_dur) SELECT i, 1, 1, i, 'thread ' || i, 899 FROM t;

WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < :per_thread - 1)
INSERT INTO _slice (thread_id, ts, dur, name_id, depth, source_id, source_row)
SELECT t.id, 1000 * k.i, 100 + (k.i * 7919) % 800, 1 + k.i % 50, 0, 1, k.i
FROM thread AS t CROSS JOIN k
ORDER BY t.id, k.i;
