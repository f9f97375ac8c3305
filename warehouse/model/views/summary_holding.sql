-- description: The inputs holding the profiler's own summaries of a rank (its step breakdown,
--     its communication time and bandwidth, its communication matrix): one row per input, rank
--     and fact.
-- column source_id: Input the row came from.
-- column rank_id: Rank of the file (-1 for the cluster file or when unknown).
-- column fact: The summary held: step_summary, communication_summary or communication_matrix.
SELECT DISTINCT source_id, rank_id, 'step_summary' AS fact FROM step_trace_time WHERE scope = 'rank'
UNION SELECT DISTINCT source_id, rank_id, 'communication_summary' AS fact FROM communication_time
UNION SELECT DISTINCT source_id, rank_id, 'communication_summary' AS fact FROM communication_bandwidth
UNION SELECT DISTINCT source_id, rank_id, 'communication_matrix' AS fact FROM communication_matrix
