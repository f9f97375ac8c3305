-- Diagnosis (issue 9, seeds 003 and 004): what `warehouse analyze` concluded, and the input
-- rows each conclusion rests on. Every finding has evidence rows that name the input row
-- they point at (the input's source id plus source_row, slice_id or kernel_id), so a claim in the report
-- can be followed back to the raw file. `warehouse analyze` replaces all three tables' rows
-- in one transaction: they always hold the findings of the latest run only.

-- One run of `warehouse analyze`.
CREATE TABLE analysis_run (
    -- Identifier referenced by finding.run_id.
    id INTEGER PRIMARY KEY,
    -- When the run started (UTC, ISO 8601).
    started_at TEXT NOT NULL,
    -- JSON array of the rule names the run evaluated, in order.
    rules TEXT NOT NULL,
    -- Number of findings the run wrote.
    finding_count INTEGER NOT NULL DEFAULT 0
);

-- One conclusion of one rule: a problem (or a notable fact) at a rank, a step, an operator.
CREATE TABLE finding (
    -- Identifier referenced by finding_evidence.finding_id.
    id INTEGER PRIMARY KEY,
    -- Run of `warehouse analyze` that wrote it (analysis_run.id).
    run_id INTEGER NOT NULL REFERENCES analysis_run (id),
    -- Rule that produced it, e.g. slow_rank_suspected, communication_collective_slow, host_bound_gaps.
    finding_type TEXT NOT NULL,
    -- high (act on it first), medium, or low (informational).
    severity TEXT NOT NULL CHECK (severity IN ('high', 'medium', 'low')),
    -- Seed 004: high = direct row evidence and a cross-check agrees; medium = direct evidence,
    -- one corroboration missing; low = the pattern is suspicious but coverage is incomplete.
    confidence TEXT NOT NULL CHECK (confidence IN ('high', 'medium', 'low')),
    -- Rank the finding is about; NULL when it is about the whole cluster or an operator profile.
    rank_id INTEGER,
    -- Step the finding is about; NULL when it spans steps or has none.
    step_id INTEGER,
    -- What the finding is about within the rank/step: a collective's name, a kernel name, an operator.
    subject TEXT,
    -- One line for a person: what was seen and, where there is one, what to change.
    message TEXT NOT NULL,
    -- The numbers behind the message as a JSON object (ns, bytes, ratios as named in it).
    numbers TEXT NOT NULL,
    -- When the finding was written (UTC, ISO 8601).
    created_at TEXT NOT NULL
);
CREATE INDEX finding_type ON finding (finding_type, severity);

-- The input rows a finding rests on: each row names the table and row it points at.
CREATE TABLE finding_evidence (
    -- Identifier of the evidence row.
    id INTEGER PRIMARY KEY,
    -- Finding it supports (finding.id).
    finding_id INTEGER NOT NULL REFERENCES finding (id),
    -- Order of the evidence within its finding, from 0 (most telling first).
    position INTEGER NOT NULL,
    -- Input file the row came from (source.id). Not named source_id: the evidence is not a row of
    -- that input (re-ingesting it must not count or delete these rows); after a re-ingest the
    -- findings are stale until the next `warehouse analyze`.
    input_source_id INTEGER,
    -- Warehouse table holding the row (kernel, communication_op, memory_record, l2_cache, step, ...).
    table_name TEXT NOT NULL,
    -- Row (or byte offset, for operator profiles) in the input, as the table's source_row / block_offset gives it.
    source_row INTEGER,
    -- The row's timeline slice (slice.id), when it has one.
    slice_id INTEGER,
    -- The kernel row (kernel.id), when the evidence is a kernel.
    kernel_id INTEGER,
    -- What this row shows, in one line (e.g. 'rank 3 step 2: compute 12.0 ms against a median of 8.1 ms').
    note TEXT NOT NULL
);
CREATE INDEX finding_evidence_finding ON finding_evidence (finding_id, position);

-- Step windows the diagnosis works in: the step table's rows, and for a rank without step
-- rows one window over all its kernels (step_id -1: the whole capture).
CREATE VIEW step_window AS
SELECT rank_id, step_id, start_ns, end_ns, source_id
FROM step
UNION ALL
SELECT rank_id, -1 AS step_id, MIN(ts) AS start_ns, MAX(ts + dur) AS end_ns, MIN(source_id) AS source_id
FROM kernel
WHERE rank_id NOT IN (SELECT rank_id FROM step)
GROUP BY rank_id;

-- Every kernel with the step window it started in (step_window), the unit of the per-step rules;
-- is_compute is 1 for the compute classes (aic, aiv, mix_cv, aicpu), 0 for communication and unclassified tasks.
CREATE VIEW step_kernel AS
SELECT
    w.step_id, k.rank_id, k.id AS kernel_id, k.source_id, k.source_row, k.slice_id, k.name, k.op_type,
    k.op_class, k.category, k.bound_stage, k.bound_family, k.input_shapes, k.ts, k.dur,
    CASE WHEN k.op_class IN ('aic', 'aiv', 'mix_cv', 'aicpu') THEN 1 ELSE 0 END AS is_compute
FROM step_window AS w
JOIN kernel AS k ON k.rank_id = w.rank_id AND k.ts >= w.start_ns AND k.ts < w.end_ns;

-- Per step and known rank (rank_id >= 0): compute kernel time and count, with their medians over
-- the step's ranks (the middle value, or the mean of the two middle ones): what the cross-rank rules compare.
CREATE VIEW step_compute AS
WITH per_rank AS (
    SELECT step_id, rank_id, SUM(dur) AS compute_ns, COUNT(*) AS kernels
    FROM step_kernel
    WHERE is_compute = 1 AND rank_id >= 0
    GROUP BY step_id, rank_id
),
ranked AS (
    SELECT
        step_id, rank_id, compute_ns, kernels,
        ROW_NUMBER() OVER (PARTITION BY step_id ORDER BY compute_ns, rank_id) AS time_position,
        ROW_NUMBER() OVER (PARTITION BY step_id ORDER BY kernels, rank_id) AS count_position,
        COUNT(*) OVER (PARTITION BY step_id) AS ranks
    FROM per_rank
),
medians AS (
    SELECT
        step_id,
        AVG(CASE WHEN 2 * time_position IN (ranks, ranks + 1, ranks + 2) THEN compute_ns END) AS median_ns,
        AVG(CASE WHEN 2 * count_position IN (ranks, ranks + 1, ranks + 2) THEN kernels END) AS median_kernels
    FROM ranked
    GROUP BY step_id
)
SELECT r.step_id, r.rank_id, r.ranks, r.compute_ns, m.median_ns, r.kernels, m.median_kernels
FROM ranked AS r
JOIN medians AS m ON m.step_id = r.step_id;
