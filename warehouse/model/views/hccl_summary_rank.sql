-- description: The ranks whose HCCL operators the profiler's communication summary answers
--     (hccl_summary_operator) instead of a kernel input: a rank no kernel input answers (a
--     torch_npu rank folder written without kernel_details.csv), and a rank whose answering
--     kernel input holds HCCL operators as kernel rows (a text export, op_summary) but lacks an
--     operator name the summary lists (no kernel of that name in the input): its
--     kernels are part of the capture only (MindStudio Insight's server test data keeps 21 rows of
--     each rank's kernel_details.csv beside the whole communication.json), and the summary is the
--     whole record. A rank db's COMMUNICATION_OP is read as whole.
-- column run_id: Run.
-- column rank_id: Rank (-1 when unknown).
-- column reason: no kernel input, or kernels partial.
WITH kernel_answers AS (
    SELECT run_id, rank_id, source_id, kind FROM answer_source WHERE fact = 'kernel'
),
listed AS (
    SELECT DISTINCT run_id, rank_id, op_name FROM communication_time_answer WHERE op_name <> 'Total Op Info'
)
SELECT DISTINCT l.run_id, l.rank_id, 'no kernel input' AS reason
FROM listed AS l
WHERE NOT EXISTS (SELECT 1 FROM kernel_answers AS a WHERE a.run_id = l.run_id AND a.rank_id IS l.rank_id)
UNION
SELECT DISTINCT l.run_id, l.rank_id, 'kernels partial'
FROM listed AS l
JOIN kernel_answers AS a ON a.run_id = l.run_id AND a.rank_id IS l.rank_id AND a.kind <> 'rank_db'
-- (the kernel_name index: one look-up per listed operator)
WHERE NOT EXISTS (SELECT 1 FROM kernel AS k WHERE k.name = l.op_name AND k.source_id = a.source_id)
