-- A prototype of the trace JSON ingest done by DuckDB (issue 36): the statements
-- bench/trace_json_duckdb.py runs, in order, over a bare-array trace bound as path, with the
-- warehouse's next ids bound as first_slice, first_thread, first_process, first_track.
-- Every table is DuckDB's own (in memory, spilling under its cap); the script then writes the
-- warehouse's rows into a scratch SQLite file through the sqlite extension.

-- Microseconds as the trace writes them (the JSON text of a string or a number) -> integer ns:
-- "123.456" split at the point and read as one integer (DuckDB 1.4.4's VARCHAR -> DECIMAL cast is
-- slow), an integer times 1000, anything else through a double rounded half to even (Python's round).
CREATE OR REPLACE MACRO ns(t) AS CASE
    WHEN t IS NULL THEN NULL
    WHEN strpos(t, '.') > 0 AND strpos(t, '.') = length(t) - 3 THEN TRY_CAST(replace(t, '.', '') AS BIGINT)
    WHEN strpos(t, '.') = 0 AND strpos(lower(t), 'e') = 0 THEN TRY_CAST(t AS BIGINT) * 1000
    ELSE CAST(round_even(TRY_CAST(t AS DOUBLE) * 1000, 0) AS BIGINT)
END;

-- Every event of the file, with its index in the array and its times in ns.
CREATE OR REPLACE TABLE ev AS
SELECT
    row_number() OVER () - 1 AS idx,
    ph,
    name,
    cat,
    coalesce(pid, '') AS pid,
    coalesce(tid, '') AS tid,
    ns(ts) AS ts,
    ns(dur) AS dur,
    id,
    coalesce(id, json_extract_string(id2, '$.global'),
             CASE WHEN json_extract_string(id2, '$.local') IS NOT NULL
                  THEN coalesce(pid, '') || ':' || json_extract_string(id2, '$.local') END) AS flow_key,
    bp,
    cname,
    args
FROM read_json($path, format = 'array', columns = {
    ph: 'VARCHAR', name: 'VARCHAR', cat: 'VARCHAR', pid: 'VARCHAR', tid: 'VARCHAR', ts: 'VARCHAR',
    dur: 'VARCHAR', id: 'VARCHAR', id2: 'JSON', bp: 'VARCHAR', cname: 'VARCHAR', args: 'JSON'});

-- The thread each event is on (the async phases on a thread of their own per (pid, cat, id)),
-- for the phases that make one.
CREATE OR REPLACE TABLE on_thread AS
SELECT
    idx,
    ph,
    pid,
    CASE WHEN ph IN ('b', 'e', 'n') THEN 'async:' || coalesce(cat, '') || ':' || coalesce(flow_key, '')
         ELSE tid END AS tid,
    name
FROM ev
WHERE ph IN ('X', 'i', 'I', 's', 't', 'f', 'B', 'E', 'b', 'e', 'n')
   OR (ph = 'M' AND name IN ('thread_name', 'thread_sort_index'));

-- Processes and threads, numbered in the order the file first names them.
CREATE OR REPLACE TABLE proc AS
SELECT $first_process - 1 + row_number() OVER (ORDER BY first_idx) AS id, pid
FROM (
    SELECT pid, min(idx) AS first_idx
    FROM (
        SELECT idx, pid FROM on_thread
        UNION ALL
        SELECT idx, pid FROM ev
        WHERE (ph = 'C' AND args IS NOT NULL)
           OR (ph = 'M' AND name IN ('process_name', 'process_labels', 'process_sort_index'))
    )
    GROUP BY pid
);

CREATE OR REPLACE TABLE thr AS
SELECT $first_thread - 1 + row_number() OVER (ORDER BY first_idx) AS id, pid, tid, first_name
FROM (
    SELECT pid, tid, min(idx) AS first_idx,
           arg_min(CASE WHEN ph IN ('b', 'e', 'n') THEN name END, idx) AS first_name
    FROM on_thread
    GROUP BY pid, tid
);

-- B/E (and b/e) pairs: per thread the stack's level after each event, an E on an empty stack
-- dropped (the walk reflected at 0); at each level begins and ends alternate, so the k-th begin
-- of a level pairs with the k-th end that leaves it.
CREATE OR REPLACE TABLE walk AS
SELECT idx, tid_id, ph IN ('B', 'b') AS is_begin, ts,
       running - least(0, min(running) OVER w) AS level_after,
       cname, name, cat, args
FROM (
    SELECT o.idx, t.id AS tid_id, e.ph, e.ts, e.cname, e.name, e.cat, e.args,
           sum(CASE WHEN e.ph IN ('B', 'b') THEN 1 ELSE -1 END) OVER (PARTITION BY t.id ORDER BY o.idx) AS running
    FROM on_thread AS o
    JOIN thr AS t USING (pid, tid)
    JOIN ev AS e USING (idx)
    WHERE o.ph IN ('B', 'E', 'b', 'e')
)
WINDOW w AS (PARTITION BY tid_id ORDER BY idx);

CREATE OR REPLACE TABLE paired AS
WITH steps AS (
    SELECT *, CASE WHEN is_begin THEN level_after ELSE level_after + 1 END AS level,
           lag(level_after, 1, 0) OVER (PARTITION BY tid_id ORDER BY idx) AS level_before
    FROM walk
), kept AS (
    SELECT *, row_number() OVER (PARTITION BY tid_id, level, is_begin ORDER BY idx) AS k
    FROM steps
    WHERE is_begin OR level_before > 0
)
SELECT b.tid_id, e.idx AS at_idx, b.idx AS source_row, b.ts, greatest(0, e.ts - b.ts) AS dur,
       CASE WHEN e.args IS NOT NULL AND e.args <> '{}' THEN json_merge_patch(coalesce(b.args, '{}'), e.args)
            END AS args
FROM kept AS b
JOIN kept AS e ON e.tid_id = b.tid_id AND e.level = b.level AND e.k = b.k AND NOT e.is_begin
WHERE b.is_begin;

-- Every slice, numbered in the order the loader appends them (an X at its index, a B/E pair at
-- its E's), with its place in its thread's nesting order (ts, longest first, first read first).
-- Only numbers are sorted: the name, category, cname and args are the event's at source_row (a
-- pair's B), joined when the rows are written, but for a pair's merged args.
CREATE OR REPLACE TABLE sl AS
WITH rows AS (
    SELECT t.id AS thread_id, e.idx AS at_idx, e.idx AS source_row, e.ts,
           CASE WHEN e.ph = 'X' THEN e.dur ELSE 0 END AS dur, NULL::JSON AS args
    FROM ev AS e
    JOIN thr AS t ON t.pid = e.pid AND t.tid = e.tid
    WHERE e.ph IN ('X', 'i', 'I')
    UNION ALL
    SELECT t.id, e.idx, e.idx, e.ts, 0, NULL
    FROM ev AS e
    JOIN thr AS t ON t.pid = e.pid AND t.tid = 'async:' || coalesce(e.cat, '') || ':' || coalesce(e.flow_key, '')
    WHERE e.ph = 'n'
    UNION ALL
    SELECT tid_id, at_idx, source_row, ts, dur, args FROM paired
)
SELECT $first_slice - 1 + row_number() OVER (ORDER BY at_idx) AS id, *,
       row_number() OVER (PARTITION BY thread_id ORDER BY ts, dur DESC, at_idx) AS ord
FROM rows;

-- Nesting: each slice's parent is the innermost slice still open when it comes (in nesting
-- order), which is the nearest earlier slice of its thread ending at or after its end (after it,
-- for an instant): the loader's stack pops exactly the slices ending before. That "nearest earlier
-- at least as large" is computed over numpy columns by pointer jumping (bench/trace_json_duckdb.py
-- registers them as nest_columns), the depth by doubling along the parents.
CREATE OR REPLACE TABLE nest AS
SELECT id, depth, parent_id FROM nest_columns;

-- Flow events bound to their slices: s/t and f with bp "e" to the deepest slice enclosing ts
-- (the latest starting at or before ts, climbing its parents while it has ended), other f to the
-- first slice starting at or after ts.
CREATE OR REPLACE TABLE fe AS
SELECT coalesce(e.cat, '') AS category, e.flow_key, CASE e.ph WHEN 's' THEN 0 WHEN 't' THEN 1 ELSE 2 END AS phase,
       e.idx AS source_row, t.id AS thread_id, e.ts, NOT (e.ph = 'f' AND coalesce(e.bp, '') <> 'e') AS enclosing, e.name
FROM ev AS e
JOIN thr AS t ON t.pid = e.pid AND t.tid = e.tid
WHERE e.ph IN ('s', 't', 'f') AND e.flow_key IS NOT NULL;

CREATE OR REPLACE TABLE sl_at AS
SELECT thread_id, ts, arg_max(id, ord) AS last_id, arg_min(id, ord) AS first_id
FROM sl
GROUP BY thread_id, ts;

CREATE OR REPLACE TABLE latest AS
SELECT f.source_row, f.ts, a.last_id
FROM (SELECT * FROM fe WHERE enclosing) AS f
ASOF LEFT JOIN sl_at AS a ON a.thread_id = f.thread_id AND a.ts <= f.ts;

-- The climb from the latest slice up its parents until one covers ts runs over numpy columns
-- (bench/trace_json_duckdb.py registers its result as climbed_columns: source_row, slice_id).
CREATE OR REPLACE TABLE bound AS
SELECT f.category, f.flow_key, f.phase, f.name, f.ts, c.slice_id, f.source_row
FROM fe AS f JOIN climbed_columns AS c USING (source_row)
UNION ALL
SELECT f.category, f.flow_key, f.phase, f.name, f.ts, a.first_id, f.source_row
FROM (SELECT * FROM fe WHERE NOT enclosing) AS f
ASOF LEFT JOIN sl_at AS a ON a.thread_id = f.thread_id AND a.ts >= f.ts;

-- Pairing, as pair_flows.sql does in SQLite.
CREATE OR REPLACE TABLE fl AS
WITH walked AS (
    SELECT *, row_number() OVER (ORDER BY category, flow_key, ts, phase, source_row) AS walk_at
    FROM bound
), marked AS (
    SELECT *,
           max(CASE WHEN phase = 0 THEN walk_at END) OVER w AS last_start,
           max(CASE WHEN phase < 2 THEN walk_at END) OVER w AS last_link
    FROM walked
    WINDOW w AS (ORDER BY walk_at ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
)
SELECT w.walk_at, c.slice_id AS slice_out, w.slice_id AS slice_in, coalesce(nullif(c.name, ''), w.name) AS name,
       nullif(w.category, '') AS category, w.flow_key, c.ts AS ts_out, w.ts AS ts_in
FROM marked AS w
JOIN walked AS st ON st.walk_at = w.last_start AND st.category = w.category AND st.flow_key = w.flow_key
JOIN walked AS c ON c.walk_at = w.last_link
WHERE w.phase > 0 AND w.slice_id IS NOT NULL AND c.slice_id IS NOT NULL;

-- Counters: one sample per numeric arg of a C event, one track per (process, series, key).
CREATE OR REPLACE TABLE samples AS
SELECT e.idx, p.id AS process_id, coalesce(e.name, '') || CASE WHEN e.id IS NOT NULL
       THEN ' ' || e.id ELSE '' END AS series, j.key, j.rowid AS key_pos, e.ts,
       CAST(j.value AS DOUBLE) AS value
FROM (SELECT * FROM ev WHERE ph = 'C' AND args IS NOT NULL) AS e
JOIN proc AS p USING (pid)
CROSS JOIN json_each(e.args) AS j
WHERE j.type IN ('UBIGINT', 'BIGINT', 'DOUBLE');

CREATE OR REPLACE TABLE track AS
SELECT $first_track - 1 + row_number() OVER (ORDER BY first_idx, first_pos) AS id, process_id, series, key
FROM (SELECT process_id, series, key, min(idx) AS first_idx, arg_min(key_pos, idx) AS first_pos
      FROM samples GROUP BY ALL);

-- Metadata: the last value of each process and thread field.
CREATE OR REPLACE TABLE meta AS
SELECT pid, tid, name, arg_max(args, idx) AS args
FROM ev
WHERE ph = 'M'
GROUP BY pid, tid, name;

-- Names, categories and cnames in the order the loader interns them.
CREATE OR REPLACE TABLE names AS
WITH used AS (
    SELECT s.id, s.at_idx <> s.source_row AS paired, e.name, e.cat, e.cname
    FROM sl AS s JOIN ev AS e ON e.idx = s.source_row
)
SELECT value, min(id * 4 + pos) AS first_use
FROM (
    SELECT id, 0 AS pos, cname AS value FROM used WHERE paired
    UNION ALL SELECT id, 1, name FROM used
    UNION ALL SELECT id, 2, cat FROM used
    UNION ALL SELECT id, 3, cname FROM used WHERE NOT paired
)
WHERE value IS NOT NULL
GROUP BY value;
