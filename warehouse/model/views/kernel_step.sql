-- description: The step of every answering device kernel and HCCL operator of every rank of every
--     run: the step the input wrote for it (kernel_details.csv's Step Id) where it wrote one, else
--     the step whose span (step_span: from the step's start to the next step's start) holds its
--     start, else NULL (it started before the rank's first step). The one rule every per-step
--     answer reads: step_kernel, step_activity, kernel_by_step, the rules, the step classes, the
--     report's inspector.
-- column run_id: Run.
-- column rank_id: Rank the item ran on (-1 when unknown).
-- column step_id: Its step (-1: the rank's whole capture; NULL before the rank's first step).
-- column table_name: Table the item is a row of: kernel (a device kernel, or an HCCL operator a
--     text export lists as a kernel) or communication_op (an HCCL operator of a rank db).
-- column row_id: Its row in that table (kernel.id, or communication_op's rowid).
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
items AS (
    SELECT a.run_id, k.rank_id, k.step_id, 'kernel' AS table_name, k.id AS row_id, k.source_id, k.name, NULL AS group_name,
        k.op_class,
        k.ts, k.dur
    FROM kernel AS k
    JOIN answer_source AS a ON a.source_id = k.source_id AND a.fact = 'kernel'
    UNION ALL
    SELECT a.run_id, c.rank_id, NULL AS step_id, 'communication_op' AS table_name, c.rowid AS row_id, c.source_id,
        c.name, c.group_name, 'communication' AS op_class, c.ts, c.dur
    FROM communication_op AS c
    JOIN answer_source AS a ON a.source_id = c.source_id AND a.fact = 'kernel'
)
SELECT
    i.run_id, i.rank_id, coalesce(i.step_id, s.step_id) AS step_id,
    i.table_name, i.row_id, i.source_id, i.name, i.group_name, i.op_class, i.ts, i.dur
FROM items AS i
-- a rank's spans do not overlap: one span at most holds an item's start
LEFT JOIN spans AS s
    ON i.step_id IS NULL AND s.source_id = i.source_id AND s.rank_id = i.rank_id
    AND i.ts >= s.span_start_ns AND i.ts < s.span_end_ns
