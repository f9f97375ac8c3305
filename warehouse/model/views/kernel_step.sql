-- description: The step of every answering device kernel and HCCL operator of every rank of every
--     run: the step the input wrote for it (kernel_details.csv's Step Id) where it wrote one, else
--     the step whose span (step_span: from the step's start to the next step's start) holds its
--     start, else NULL (it started before the rank's first step); an HCCL operator a communication
--     summary answers (hccl_summary_operator) the step the summary files it under, and that rank's
--     HCCL kernels, part of its operators only (hccl_summary_rank), none. The one
--     rule every per-step answer reads: step_kernel, step_activity, kernel_by_step, the rules, the
--     step classes, the report's inspector.
-- column run_id: Run.
-- column rank_id: Rank the item ran on (-1 when unknown).
-- column step_id: Its step (-1: the rank's whole capture; NULL before the rank's first step).
-- column table_name: Table the item is a row of: kernel (a device kernel, or an HCCL operator a
--     text export lists as a kernel), communication_op (an HCCL operator of a rank db) or
--     communication_time (an HCCL operator of a rank only its communication summary records).
-- column row_id: Its row in that table (kernel.id, or communication_op's or communication_time's
--     rowid).
-- column source_id: Input the row came from.
-- column name: The kernel's or operator's name.
-- column group_name: The HCCL operator's communication group (a rank db's COMMUNICATION_OP), else
--     NULL.
-- column op_class: The kernel's class (kernel.op_class); communication for an HCCL operator.
-- column ts: Start time in ns.
-- column dur: Duration in ns.
WITH spans AS (
    SELECT s.run_id, s.rank_id, s.step_id, s.span_start_ns, s.span_end_ns, a.source_id
    FROM step_span AS s
    JOIN answer_source AS a ON a.run_id = s.run_id AND a.rank_id = s.rank_id AND a.fact = 'kernel'
),
answering AS (
    SELECT source_id, run_id FROM answer_source WHERE fact = 'kernel'
),
-- the ranks whose HCCL operators their communication summary answers (few: none on a whole capture)
summary_ranks AS MATERIALIZED (
    SELECT run_id, rank_id FROM hccl_summary_rank
),
-- a rank's spans run on from its first step's start without a gap (each ends where the next
-- starts, the last never): an item is in none exactly when it starts before the first
firsts AS (
    SELECT source_id, rank_id, min(span_start_ns) AS first_ns FROM spans GROUP BY source_id, rank_id
),
-- each item once: the step its input wrote; else the span holding its start, found from the spans
-- (CROSS JOIN keeps SQLite's order: each span reads its items through the (source_id, ts) index);
-- else none (it started before its rank's first span, or its rank has none)
kernels AS (
    SELECT a.run_id, k.rank_id, k.step_id, k.id AS row_id, k.source_id, k.name, k.op_class, k.ts, k.dur
    FROM answering AS a
    CROSS JOIN kernel AS k ON k.source_id = a.source_id
    WHERE k.step_id IS NOT NULL AND (k.op_class <> 'communication' OR NOT EXISTS (
        SELECT 1 FROM summary_ranks AS r WHERE r.run_id = a.run_id AND r.rank_id IS k.rank_id))
    UNION ALL
    SELECT s.run_id, k.rank_id, s.step_id, k.id, k.source_id, k.name, k.op_class, k.ts, k.dur
    FROM spans AS s
    CROSS JOIN kernel AS k ON k.source_id = s.source_id AND k.ts >= s.span_start_ns AND k.ts < s.span_end_ns
    WHERE k.step_id IS NULL AND k.rank_id = s.rank_id AND (k.op_class <> 'communication' OR NOT EXISTS (
        SELECT 1 FROM summary_ranks AS r WHERE r.run_id = s.run_id AND r.rank_id IS k.rank_id))
    UNION ALL
    SELECT a.run_id, k.rank_id, NULL, k.id, k.source_id, k.name, k.op_class, k.ts, k.dur
    FROM answering AS a
    CROSS JOIN kernel AS k ON k.source_id = a.source_id
    LEFT JOIN firsts AS f ON f.source_id = k.source_id AND f.rank_id = k.rank_id
    WHERE k.step_id IS NULL AND (f.first_ns IS NULL OR k.ts < f.first_ns) AND (k.op_class <> 'communication'
        OR NOT EXISTS (SELECT 1 FROM summary_ranks AS r WHERE r.run_id = a.run_id AND r.rank_id IS k.rank_id))
),
operators AS (
    SELECT s.run_id, c.rank_id, s.step_id, c.rowid AS row_id, c.source_id, c.name, c.group_name, c.ts, c.dur
    FROM spans AS s
    CROSS JOIN communication_op AS c ON c.source_id = s.source_id AND c.ts >= s.span_start_ns AND c.ts < s.span_end_ns
    WHERE c.rank_id = s.rank_id
    UNION ALL
    SELECT a.run_id, c.rank_id, NULL, c.rowid, c.source_id, c.name, c.group_name, c.ts, c.dur
    FROM answering AS a
    CROSS JOIN communication_op AS c ON c.source_id = a.source_id
    LEFT JOIN firsts AS f ON f.source_id = c.source_id AND f.rank_id = c.rank_id
    WHERE f.first_ns IS NULL OR c.ts < f.first_ns
)
SELECT run_id, rank_id, step_id, 'kernel' AS table_name, row_id, source_id, name, NULL AS group_name, op_class, ts, dur
FROM kernels
UNION ALL
SELECT run_id, rank_id, step_id, 'communication_op', row_id, source_id, name, group_name, 'communication', ts, dur
FROM operators
UNION ALL
SELECT run_id, rank_id, step_id, 'communication_time', row_id, source_id, name, NULL, 'communication', ts, dur
FROM hccl_summary_operator
