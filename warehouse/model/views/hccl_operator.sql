-- description: The HCCL operators of each rank of each run, whichever export holds them:
--     COMMUNICATION_OP of a rank db, or the HCCL rows of kernel_details.csv / op_summary
--     (op_class communication), from the input that answers the rank's kernels; so every answer
--     is the same for both exports. A rank no kernel input answers, or whose kernels hold part of
--     its operators only (hccl_summary_rank), has the operators its communication summary lists (hccl_summary_operator: analysis.db CommAnalyzerTime, else
--     communication.json), their start and Elapse Time: the profiler's own record of each call.
-- column run_id: Run.
-- column rank_id: Rank of the input file (-1 when unknown).
-- column name: Operator name, e.g. hcom_allReduce__123_0_1 (STRING_IDS(opName)).
-- column op_type: Operator type, e.g. hcom_allReduce_ (STRING_IDS(opType)).
-- column group_name: Communication group (STRING_IDS(groupName)); NULL where the input names none
--     (kernel_details.csv) or only its hash (a communication summary's key after '@', which a
--     rank db's group name is not): the operator's name carries that hash's last digits, so the
--     ranks' calls of one collective meet by name.
-- column ts: Start in ns (startNs).
-- column dur: Duration in ns (endNs - startNs).
-- column source_id: Input the row came from.
-- column source_row: Row of COMMUNICATION_OP (its rowid).
-- column slice_id: The operator's slice on the timeline (slice.id).
-- column table_name: Table the operator was read from: communication_op (rank db), kernel
--     (text exports) or communication_time (a communication summary).
-- column row_id: Its row in that table (communication_op's or communication_time's rowid, or
--     kernel.id): with table_name, the key kernel_step gives the operator's step by.
-- column type_name: The operator's type as the input states it, else its name less the instance
--     suffix ('hcom_allReduce__868_0_1' -> 'hcom_allReduce_': a level0 rank db gives none, its 'N/A'
--     read as NULL, kernel_details.csv and a communication summary neither), so every export exports name a type alike: what the per-type
--     answers group by.
WITH operators AS (
SELECT
    a.run_id, c.rank_id, c.name, c.op_type, c.group_name, c.ts, c.dur, c.source_id, c.source_row, c.slice_id,
    'communication_op' AS table_name, c.rowid AS row_id
FROM communication_op AS c
JOIN answer_source AS a ON a.source_id = c.source_id AND a.fact = 'kernel'
UNION ALL
SELECT
    a.run_id, k.rank_id, k.name, k.op_type, NULL AS group_name, k.ts, k.dur, k.source_id, k.source_row, k.slice_id,
    'kernel' AS table_name, k.id AS row_id
FROM kernel AS k
JOIN answer_source AS a ON a.source_id = k.source_id AND a.fact = 'kernel'
WHERE k.op_class = 'communication'
    -- a rank whose kernels hold part of its operators only has them from its summary, below
    AND NOT EXISTS (SELECT 1 FROM hccl_summary_rank AS r WHERE r.run_id = a.run_id AND r.rank_id IS k.rank_id)
UNION ALL
SELECT
    h.run_id, h.rank_id, h.name, NULL AS op_type, NULL AS group_name, h.ts, h.dur, h.source_id, h.source_row,
    NULL AS slice_id, 'communication_time' AS table_name, h.row_id
FROM hccl_summary_operator AS h
)
SELECT
    run_id, rank_id, name, op_type, group_name, ts, dur, source_id, source_row, slice_id, table_name, row_id,
    coalesce(op_type,
-- include: _instance_type
    ) AS type_name
FROM (SELECT *, name AS op_name FROM operators) AS o
