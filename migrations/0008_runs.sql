-- Runs as first-class (issue 16): every input belongs to one profiling run, ranks are per run,
-- and where several inputs of one rank of one run hold the same fact a documented precedence
-- picks the one that answers. The model layer (warehouse/model/) is the only writer of runs;
-- ranks are derived from the inputs (a view), so they can never disagree with them.

-- One profiling run: the folder holding its rank folders, a PROF_* folder, or one trace file.
CREATE TABLE run (
    -- Identifier referenced by source.run_id and by every answer that is per run.
    run_id INTEGER PRIMARY KEY,
    -- Name shown to people and accepted by --run (the root's path as given, or --run NAME).
    name TEXT NOT NULL UNIQUE,
    -- Absolute path of the run's root (its folder, or the file when a run is one file).
    root TEXT NOT NULL UNIQUE,
    -- Earliest start time an input of the run states (profiler_info start_info, STEP_TIME, ...), in ns; NULL until known.
    start_ns INTEGER,
    -- Profiler that wrote the run (torch_npu, msprof, kineto, msprof-op, ...), when an input says.
    profiler TEXT,
    -- Version of that profiler (CANN or torch_npu version), when an input says.
    profiler_version TEXT,
    -- JSON object of labels a person attached to the run (free form), NULL when none.
    labels TEXT,
    -- When the run's first input was ingested (UTC, ISO 8601).
    created_at TEXT NOT NULL
);

-- Run the input belongs to (run.run_id).
ALTER TABLE source ADD COLUMN run_id INTEGER REFERENCES run (run_id);
-- NPU device of the input's rank, when the input says (rank db RANK_DEVICE_MAP / NPU_INFO).
ALTER TABLE source ADD COLUMN device_id INTEGER;
-- Host name of the input's rank, when the input says (rank db HOST_INFO).
ALTER TABLE source ADD COLUMN host_name TEXT;
CREATE INDEX source_run_rank ON source (run_id, rank_id);

-- A warehouse built before runs existed holds one run: all of its inputs.
INSERT INTO run (run_id, name, root, created_at)
SELECT 1, 'run 1', '(ingested before runs were recorded)', min(ingested_at) FROM source HAVING count(*) > 0;
UPDATE source SET run_id = 1;
UPDATE source SET
    device_id = (SELECT device_id FROM rank WHERE rank.source_id = source.id),
    host_name = (SELECT host_name FROM rank WHERE rank.source_id = source.id);

-- The rank table becomes a view over the inputs: a rank exists while an ok input of it does.
DROP TABLE rank;
-- The ranks of each run: one row per (run, rank) some ok input belongs to.
CREATE VIEW rank AS
SELECT
    -- Run the rank belongs to.
    run_id,
    -- Global rank number in the run's cluster; -1 where the input leaves it unset.
    rank_id,
    -- NPU device the rank ran on, when an input says.
    max(device_id) AS device_id,
    -- Host name of the machine, when an input says.
    max(host_name) AS host_name,
    -- First input of the rank (source.id).
    min(id) AS source_id,
    -- Number of ok inputs of the rank.
    count(*) AS source_count
FROM source
WHERE status = 'ok' AND rank_id IS NOT NULL
GROUP BY run_id, rank_id;

-- Which input answers a fact when several of one rank hold it: the lowest precedence wins;
-- the others stay stored and visible, never added to it (README: one fact, one source).
CREATE TABLE fact_precedence (
    -- The fact: kernel (device operators), timeline (slices, steps), step_summary (the profiler's
    -- step breakdown), communication_summary, communication_matrix, memory, op_memory.
    fact TEXT NOT NULL,
    -- source.kind of an input holding it.
    kind TEXT NOT NULL,
    -- 1 answers first; a higher number only where no input of a lower one exists for the rank.
    precedence INTEGER NOT NULL,
    PRIMARY KEY (fact, kind)
);
INSERT INTO fact_precedence (fact, kind, precedence) VALUES
    ('kernel', 'rank_db', 1),
    ('kernel', 'kernel_details_csv', 2),
    ('kernel', 'op_summary_csv', 3),
    ('timeline', 'rank_db', 1),
    ('timeline', 'trace_json', 2),
    ('step_summary', 'analysis_db', 1),
    ('step_summary', 'step_trace_time_csv', 2),
    ('step_summary', 'cluster_step_trace_time_csv', 3),
    ('communication_summary', 'analysis_db', 1),
    ('communication_summary', 'communication_json', 2),
    ('communication_summary', 'cluster_communication_json', 3),
    ('communication_matrix', 'analysis_db', 1),
    ('communication_matrix', 'communication_matrix_json', 2),
    ('communication_matrix', 'cluster_communication_matrix_json', 3),
    ('memory', 'rank_db', 1),
    ('memory', 'memory_record_csv', 2),
    ('op_memory', 'rank_db', 1),
    ('op_memory', 'operator_memory_csv', 2);

-- The inputs that answer each fact of each rank of each run (fact_precedence applied).
CREATE VIEW answer_source AS
WITH held AS (
    SELECT
        s.run_id, s.rank_id, p.fact, s.id AS source_id, s.kind, p.precedence,
        min(p.precedence) OVER (PARTITION BY s.run_id, s.rank_id, p.fact) AS best
    FROM source AS s
    JOIN fact_precedence AS p ON p.kind = s.kind
    WHERE s.status = 'ok'
)
SELECT
    -- Run of the rank.
    run_id,
    -- Rank (NULL for an input about a whole cluster, such as cluster_step_trace_time.csv).
    rank_id,
    -- The fact (fact_precedence.fact).
    fact,
    -- Input that answers it (source.id).
    source_id,
    -- Its kind.
    kind,
    -- Its precedence.
    precedence
FROM held
WHERE precedence = best;

-- finding.run_id named the `warehouse analyze` run: it becomes analysis_run_id, and run_id is
-- the profiling run the finding is about, as everywhere else.

-- Run of `warehouse analyze` that wrote it (analysis_run.id).
ALTER TABLE finding RENAME COLUMN run_id TO analysis_run_id;
-- Profiling run the finding is about (run.run_id); NULL for a finding about an operator profile alone.
ALTER TABLE finding ADD COLUMN run_id INTEGER;

-- Step windows per run: the step table's rows of the answering timeline, and for a rank
-- without step rows one window over all its answering kernels (step_id -1: the whole capture).
DROP VIEW step_compute;
DROP VIEW step_kernel;
DROP VIEW step_window;
-- Step windows the diagnosis works in, per run and rank (see the migration's comment).
CREATE VIEW step_window AS
SELECT a.run_id, st.rank_id, st.step_id, st.start_ns, st.end_ns, st.source_id
FROM step AS st
JOIN answer_source AS a ON a.source_id = st.source_id AND a.fact = 'timeline'
UNION ALL
SELECT a.run_id, k.rank_id, -1 AS step_id, min(k.ts) AS start_ns, max(k.ts + k.dur) AS end_ns, min(k.source_id) AS source_id
FROM kernel AS k
JOIN answer_source AS a ON a.source_id = k.source_id AND a.fact = 'kernel'
WHERE NOT EXISTS (
    SELECT 1 FROM step AS st JOIN answer_source AS t ON t.source_id = st.source_id AND t.fact = 'timeline'
    WHERE t.run_id = a.run_id AND st.rank_id = k.rank_id
)
GROUP BY a.run_id, k.rank_id;

-- Every answering kernel with the step window it started in (step_window), the unit of the per-step rules;
-- is_compute is 1 for the compute classes (aic, aiv, mix_cv, aicpu, dsa, gpu), 0 for communication and unclassified tasks.
CREATE VIEW step_kernel AS
SELECT
    w.run_id, w.step_id, k.rank_id, k.id AS kernel_id, k.source_id, k.source_row, k.slice_id, k.name, k.op_type,
    k.op_class, k.category, k.bound_stage, k.bound_family, k.input_shapes, k.ts, k.dur,
    CASE WHEN k.op_class IN ('aic', 'aiv', 'mix_cv', 'aicpu', 'dsa', 'gpu') THEN 1 ELSE 0 END AS is_compute
FROM step_window AS w
JOIN answer_source AS a ON a.run_id = w.run_id AND a.rank_id = w.rank_id AND a.fact = 'kernel'
JOIN kernel AS k ON k.source_id = a.source_id AND k.rank_id = w.rank_id AND k.ts >= w.start_ns AND k.ts < w.end_ns;

-- Per run, step and known rank (rank_id >= 0): compute kernel time and count, with their medians over
-- the step's ranks (the middle value, or the mean of the two middle ones): what the cross-rank rules compare.
CREATE VIEW step_compute AS
WITH per_rank AS (
    SELECT run_id, step_id, rank_id, SUM(dur) AS compute_ns, COUNT(*) AS kernels
    FROM step_kernel
    WHERE is_compute = 1 AND rank_id >= 0
    GROUP BY run_id, step_id, rank_id
),
ranked AS (
    SELECT
        run_id, step_id, rank_id, compute_ns, kernels,
        ROW_NUMBER() OVER (PARTITION BY run_id, step_id ORDER BY compute_ns, rank_id) AS time_position,
        ROW_NUMBER() OVER (PARTITION BY run_id, step_id ORDER BY kernels, rank_id) AS count_position,
        COUNT(*) OVER (PARTITION BY run_id, step_id) AS ranks
    FROM per_rank
),
medians AS (
    SELECT
        run_id, step_id,
        AVG(CASE WHEN 2 * time_position IN (ranks, ranks + 1, ranks + 2) THEN compute_ns END) AS median_ns,
        AVG(CASE WHEN 2 * count_position IN (ranks, ranks + 1, ranks + 2) THEN kernels END) AS median_kernels
    FROM ranked
    GROUP BY run_id, step_id
)
SELECT r.run_id, r.step_id, r.rank_id, r.ranks, r.compute_ns, m.median_ns, r.kernels, m.median_kernels
FROM ranked AS r
JOIN medians AS m ON m.run_id = r.run_id AND m.step_id = r.step_id;

-- Kernels and communication operators are searched per answering input and time.
CREATE INDEX kernel_source_ts ON kernel (source_id, ts);
DROP INDEX kernel_source;
CREATE INDEX communication_op_source_ts ON communication_op (source_id, ts);

-- The inputs holding the profiler's own summaries of a rank (its step breakdown, its
-- communication time and bandwidth, its communication matrix): one row per input, rank and fact.
CREATE VIEW summary_holding AS
SELECT DISTINCT source_id, rank_id, 'step_summary' AS fact FROM step_trace_time WHERE scope = 'rank'
UNION SELECT DISTINCT source_id, rank_id, 'communication_summary' AS fact FROM communication_time
UNION SELECT DISTINCT source_id, rank_id, 'communication_summary' AS fact FROM communication_bandwidth
UNION SELECT DISTINCT source_id, rank_id, 'communication_matrix' AS fact FROM communication_matrix;

-- The input whose summary answers for each rank of each run, per fact (fact_precedence applied
-- to the inputs holding it: analysis.db before the text files before the cluster files).
CREATE VIEW summary_answer AS
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
WHERE precedence = best;

-- The step markers of each rank (the step table's rows), each saying whether the profiler's own
-- summary answers for its rank (summary_answer): the derived breakdown of those steps is read by
-- the reconciliation only, so the answers never compute it.
CREATE VIEW step_marker AS
SELECT
    st.rank_id, st.step_id, st.start_ns, st.end_ns, st.source_id,
    -- 1 when the profiler's step summary answers for the rank of the step's run, else 0.
    CASE WHEN EXISTS (
        SELECT 1 FROM summary_answer AS sa JOIN source AS s ON s.id = st.source_id
        WHERE sa.run_id = s.run_id AND sa.rank_id = st.rank_id AND sa.fact = 'step_summary'
    ) THEN 1 ELSE 0 END AS summarized
FROM step AS st;

-- What the device did in each step of each rank, as torch_npu's step trace counts it
-- (prof_db_parse/_trace_step_time_db_parser.py, prof_view/_trace_step_time_parser.py):
-- the answering kernels and HCCL operators that start in the step (from the host step's start
-- to the next step's; the profiler's own Step Id where the input gives one), and in a trace
-- without device kernels (a GPU kineto trace) the 'kernel' slices, NCCL ones as communication.
-- One row per interval: kind compute or communication, receive_ns its length for hcom_receive*.
CREATE VIEW step_activity AS
WITH steps AS (
    SELECT
        a.run_id, st.rank_id, st.step_id, st.start_ns, st.end_ns, st.source_id AS timeline_source_id,
        st.summarized,
        lead(st.start_ns) OVER (PARTITION BY a.run_id, st.rank_id, st.summarized ORDER BY st.start_ns, st.step_id)
            AS next_start_ns
    FROM step_marker AS st
    JOIN answer_source AS a ON a.source_id = st.source_id AND a.fact = 'timeline'
),
kernel_steps AS (
    -- each step with the input answering its rank's kernels; steps of a rank without one read the
    -- timeline's kernel slices instead (CROSS JOIN keeps SQLite's join order: steps first, then
    -- the (source_id, ts) / (thread_id, ts) index ranges of each step)
    SELECT s.*, a.source_id AS kernel_source_id
    FROM steps AS s
    LEFT JOIN answer_source AS a ON a.run_id = s.run_id AND a.rank_id = s.rank_id AND a.fact = 'kernel'
),
device AS (
    SELECT s.run_id, s.rank_id, s.step_id, s.summarized, k.ts, k.dur, k.name,
        CASE WHEN k.op_class = 'communication' THEN 'communication' ELSE 'compute' END AS kind
    FROM kernel_steps AS s
    CROSS JOIN kernel AS k ON k.source_id = s.kernel_source_id AND k.ts >= s.start_ns
        AND k.ts < coalesce(s.next_start_ns, 9223372036854775807)
    WHERE coalesce(k.step_id, s.step_id) = s.step_id
    UNION ALL
    SELECT s.run_id, s.rank_id, s.step_id, s.summarized, c.ts, c.dur, c.name, 'communication' AS kind
    FROM kernel_steps AS s
    CROSS JOIN communication_op AS c ON c.source_id = s.kernel_source_id AND c.ts >= s.start_ns
        AND c.ts < coalesce(s.next_start_ns, 9223372036854775807)
    UNION ALL
    SELECT s.run_id, s.rank_id, s.step_id, s.summarized, sl.ts, sl.dur, n.value,
        CASE WHEN lower(n.value) LIKE '%nccl%' THEN 'communication' ELSE 'compute' END AS kind
    FROM kernel_steps AS s
    CROSS JOIN process AS p ON p.source_id = s.timeline_source_id
    CROSS JOIN thread AS t ON t.process_id = p.id
    CROSS JOIN _slice AS sl ON sl.thread_id = t.id AND sl.ts >= s.start_ns
        AND sl.ts < coalesce(s.next_start_ns, 9223372036854775807)
    CROSS JOIN string AS c ON c.id = sl.category_id
    LEFT JOIN string AS n ON n.id = sl.name_id
    WHERE s.kernel_source_id IS NULL AND c.value IN ('kernel', 'Kernel')
)
SELECT
    -- Run of the rank.
    run_id,
    -- Rank.
    rank_id,
    -- Step number.
    step_id,
    -- 1 when the profiler's own summary answers for the rank (step_marker.summarized).
    summarized,
    -- compute or communication.
    kind,
    -- Start of the interval in ns.
    ts AS lo,
    -- End of the interval in ns.
    ts + dur AS hi,
    -- Its length when it is a receive (hcom_receive*: pipeline bubble), else 0.
    CASE WHEN kind = 'communication' AND name LIKE 'hcom\_receive%' ESCAPE '\' THEN dur ELSE 0 END AS receive_ns
FROM device
WHERE dur > 0;

-- The step breakdown derived from the rows, in the profiler's terms and arithmetic (README,
-- "Definitions"): computing = |compute union|, communication = |communication union|,
-- overlapped = their intersection, free = the gaps between the first and last device activity,
-- stage = that span less the bubble (receives), preparing = host step start -> first activity.
-- warehouse check reconciles it with the profiler's own summary (step_trace_time).
CREATE VIEW step_breakdown AS
WITH ordered AS (
    SELECT
        run_id, rank_id, step_id, summarized, kind, lo, hi, receive_ns,
        max(CASE WHEN kind = 'compute' THEN hi END) OVER previous AS compute_reach,
        max(CASE WHEN kind = 'communication' THEN hi END) OVER previous AS communication_reach,
        max(hi) OVER previous AS busy_reach
    FROM step_activity
    WINDOW previous AS (PARTITION BY run_id, rank_id, step_id, summarized ORDER BY lo, hi
                        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
),
added AS (
    -- in start order, each interval adds what it covers past the furthest end before it:
    -- summed, that is the length of the union (of its kind, and of both kinds)
    SELECT
        run_id, rank_id, step_id, summarized, kind, lo, hi, receive_ns,
        max(0, hi - max(lo, coalesce(CASE WHEN kind = 'compute' THEN compute_reach ELSE communication_reach END, lo))) AS kind_added,
        max(0, hi - max(lo, coalesce(busy_reach, lo))) AS busy_added
    FROM ordered
),
totals AS (
    SELECT
        run_id, rank_id, step_id, summarized,
        sum(CASE WHEN kind = 'compute' THEN kind_added ELSE 0 END) AS computing_ns,
        sum(CASE WHEN kind = 'communication' THEN kind_added ELSE 0 END) AS communication_ns,
        sum(busy_added) AS busy_ns,
        min(lo) AS first_ns,
        max(hi) AS last_ns,
        sum(receive_ns) AS bubble_ns
    FROM added
    GROUP BY run_id, rank_id, step_id, summarized
),
steps AS (
    SELECT a.run_id, st.rank_id, st.step_id, st.start_ns, st.end_ns, st.summarized
    FROM step_marker AS st
    JOIN answer_source AS a ON a.source_id = st.source_id AND a.fact = 'timeline'
)
SELECT
    -- Run of the rank.
    s.run_id,
    -- Rank.
    s.rank_id,
    -- Step number.
    s.step_id,
    -- Host start of the step (the profiler's step marker), in ns.
    s.start_ns,
    -- Host end of the step, in ns.
    s.end_ns,
    -- 1 when the profiler's own summary answers for the rank (step_answer then reads it).
    s.summarized,
    -- Time some compute kernel ran, in ns (Computing).
    coalesce(t.computing_ns, 0) AS computing_ns,
    -- Communication not overlapped by compute, in ns (Communication(Not Overlapped)).
    coalesce(t.busy_ns - t.computing_ns, 0) AS communication_not_overlapped_ns,
    -- Communication overlapped by compute, in ns (Overlapped).
    coalesce(t.computing_ns + t.communication_ns - t.busy_ns, 0) AS overlapped_ns,
    -- Time some communication ran, in ns (Communication).
    coalesce(t.communication_ns, 0) AS communication_ns,
    -- Gaps between the first and the last device activity, in ns (Free).
    coalesce(t.last_ns - t.first_ns - t.busy_ns, 0) AS free_ns,
    -- First to last device activity less the bubble, in ns (Stage).
    coalesce(t.last_ns - t.first_ns - t.bubble_ns, 0) AS stage_ns,
    -- Receive operators (hcom_receive*), in ns (Bubble).
    coalesce(t.bubble_ns, 0) AS bubble_ns,
    -- Communication not overlapped, receives excluded, in ns.
    coalesce(t.busy_ns - t.computing_ns - t.bubble_ns, 0) AS communication_not_overlapped_exclude_receive_ns,
    -- Host step start to the first device activity, in ns (Preparing).
    coalesce(t.first_ns - s.start_ns, 0) AS preparing_ns
FROM steps AS s
LEFT JOIN totals AS t ON t.run_id = s.run_id AND t.rank_id = s.rank_id AND t.step_id = s.step_id
    AND t.summarized = s.summarized;

-- The profiler's own step breakdown (analysis.db StepTraceTime, step_trace_time.csv,
-- cluster_step_trace_time.csv) that answers for each rank of each run (summary_answer).
CREATE VIEW step_summary AS
SELECT
    a.run_id, t.rank_id, t.step_id, t.computing_ns, t.communication_not_overlapped_ns, t.overlapped_ns,
    t.communication_ns, t.free_ns, t.stage_ns, t.bubble_ns, t.communication_not_overlapped_exclude_receive_ns,
    t.preparing_ns, t.source_id, t.source_row, a.kind
FROM step_trace_time AS t
JOIN summary_answer AS a ON a.source_id = t.source_id AND a.rank_id IS t.rank_id AND a.fact = 'step_summary'
WHERE t.scope = 'rank';

-- The step breakdown that answers for every step of every rank of every run: the profiler's
-- own summary where it wrote one for the rank (step_summary; basis names its kind), else the
-- breakdown derived from the rows (step_breakdown; basis 'derived'). duration_ns = preparing + stage +
-- bubble: host step start to the last device activity.
CREATE VIEW step_answer AS
WITH answered AS (
    SELECT
        s.run_id, s.rank_id, s.step_id, d.start_ns, d.end_ns, s.computing_ns, s.communication_not_overlapped_ns,
        s.overlapped_ns, s.communication_ns, s.free_ns, coalesce(s.preparing_ns, 0) AS preparing_ns, s.stage_ns,
        s.bubble_ns, s.kind AS basis
    FROM step_summary AS s
    LEFT JOIN (
        SELECT a.run_id, m.rank_id, m.step_id, m.start_ns, m.end_ns
        FROM step_marker AS m
        JOIN answer_source AS a ON a.source_id = m.source_id AND a.fact = 'timeline'
    ) AS d ON d.run_id = s.run_id AND d.rank_id = s.rank_id AND d.step_id = s.step_id
    UNION ALL
    SELECT
        d.run_id, d.rank_id, d.step_id, d.start_ns, d.end_ns, d.computing_ns, d.communication_not_overlapped_ns,
        d.overlapped_ns, d.communication_ns, d.free_ns, d.preparing_ns, d.stage_ns, d.bubble_ns, 'derived' AS basis
    FROM step_breakdown AS d
    WHERE d.summarized = 0
)
SELECT
    run_id, rank_id, step_id, start_ns, end_ns,
    coalesce(preparing_ns, 0) + coalesce(stage_ns, 0) + coalesce(bubble_ns, 0) AS duration_ns,
    computing_ns, communication_not_overlapped_ns, overlapped_ns, communication_ns, free_ns, preparing_ns,
    stage_ns, bubble_ns, basis
FROM answered;

-- The HCCL operators of each rank of each run, whichever export holds them: COMMUNICATION_OP
-- of a rank db, or the HCCL rows of kernel_details.csv / op_summary (op_class communication),
-- from the input that answers the rank's kernels; so every answer is the same for both exports.
CREATE VIEW hccl_operator AS
SELECT
    a.run_id, c.rank_id, c.name, c.op_type, c.group_name, c.ts, c.dur, c.source_id, c.source_row, c.slice_id,
    'communication_op' AS table_name
FROM communication_op AS c
JOIN answer_source AS a ON a.source_id = c.source_id AND a.fact = 'kernel'
UNION ALL
SELECT
    a.run_id, k.rank_id, k.name, k.op_type, NULL AS group_name, k.ts, k.dur, k.source_id, k.source_row, k.slice_id,
    'kernel' AS table_name
FROM kernel AS k
JOIN answer_source AS a ON a.source_id = k.source_id AND a.fact = 'kernel'
WHERE k.op_class = 'communication';

-- The device kernels that answer for each rank of each run (fact_precedence), HCCL operators
-- excluded (they are in hccl_operator whichever export holds them): what kernel answers read.
CREATE VIEW kernel_answer AS
SELECT a.run_id, k.*
FROM kernel AS k
JOIN answer_source AS a ON a.source_id = k.source_id AND a.fact = 'kernel'
WHERE k.op_class IS NOT 'communication';

-- The profiler's per-operator communication figures (analysis.db CommAnalyzerTime,
-- communication.json, cluster_communication.json) that answer for each rank of each run.
CREATE VIEW communication_time_answer AS
SELECT a.run_id, t.*, a.kind
FROM communication_time AS t
JOIN summary_answer AS a ON a.source_id = t.source_id AND a.rank_id IS t.rank_id AND a.fact = 'communication_summary';

-- The same for the bytes and bandwidth per operator and transport (CommAnalyzerBandwidth, communication.json).
CREATE VIEW communication_bandwidth_answer AS
SELECT a.run_id, b.*, a.kind
FROM communication_bandwidth AS b
JOIN summary_answer AS a ON a.source_id = b.source_id AND a.rank_id IS b.rank_id AND a.fact = 'communication_summary';

-- The same for the traffic per rank pair (CommAnalyzerMatrix, communication_matrix.json, the cluster file).
CREATE VIEW communication_matrix_answer AS
SELECT a.run_id, m.*, a.kind
FROM communication_matrix AS m
JOIN summary_answer AS a ON a.source_id = m.source_id AND a.rank_id IS m.rank_id AND a.fact = 'communication_matrix';
