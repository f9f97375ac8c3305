-- description: The profiler's own step breakdown (analysis.db StepTraceTime,
--     step_trace_time.csv, cluster_step_trace_time.csv) that answers for each rank of each run
--     (summary_answer).
-- column run_id: Run.
-- column rank_id: Rank the row is about (-1 for stage rows or when unknown).
-- column step_id: Step number (Step), NULL when the file leaves it empty.
-- column computing_ns: Computing time in ns (Computing).
-- column communication_not_overlapped_ns: Communication not hidden by computing, in ns
--     (Communication(Not Overlapped)).
-- column overlapped_ns: Communication hidden by computing, in ns (Overlapped).
-- column communication_ns: All communication time in ns (Communication).
-- column free_ns: Idle time in ns (Free).
-- column stage_ns: Stage time in ns (Stage).
-- column bubble_ns: Pipeline bubble in ns (Bubble).
-- column communication_not_overlapped_exclude_receive_ns: Communication not overlapped,
--     receives excluded, in ns (Communication(Not Overlapped and Exclude Receive)).
-- column preparing_ns: Preparation time before the first kernel, in ns (Preparing), when given.
-- column source_id: Input the row came from.
-- column source_row: CSV data-record number.
-- column kind: Format of the input whose summary answers (source.kind).
SELECT
    a.run_id, t.rank_id, t.step_id, t.computing_ns, t.communication_not_overlapped_ns, t.overlapped_ns,
    t.communication_ns, t.free_ns, t.stage_ns, t.bubble_ns, t.communication_not_overlapped_exclude_receive_ns,
    t.preparing_ns, t.source_id, t.source_row, a.kind
FROM step_trace_time AS t
JOIN summary_answer AS a ON a.source_id = t.source_id AND a.rank_id IS t.rank_id AND a.fact = 'step_summary'
WHERE t.scope = 'rank'
