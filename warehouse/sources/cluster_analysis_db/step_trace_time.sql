-- ClusterStepTraceTime (one row per step and rank, and per step and pipeline stage; times in us)
-- into step_trace_time, as cluster_step_trace_time.csv is read: scope is the row's type (rank or
-- stage), scope_key its index (the rank, or the stage's ranks '(0,1,...)'), rank_id the index of a
-- rank row and -1 for a stage row.
INSERT INTO step_trace_time (
    source_id, source_row, rank_id, step_id, scope, scope_key, computing_ns, communication_not_overlapped_ns,
    overlapped_ns, communication_ns, free_ns, stage_ns, bubble_ns, communication_not_overlapped_exclude_receive_ns,
    preparing_ns
)
SELECT
    :source_id, s._row, CASE WHEN s.type = 'rank' THEN CAST(s."index" AS INTEGER) ELSE -1 END, step_number(s.step),
    s.type, CAST(s."index" AS TEXT), us_to_ns(s.computing), us_to_ns(s.communication_not_overlapped),
    us_to_ns(s.overlapped), us_to_ns(s.communication), us_to_ns(s.free), us_to_ns(s.stage), us_to_ns(s.bubble),
    us_to_ns(s.communication_not_overlapped_and_exclude_receive), us_to_ns(s.preparing)
FROM in_ClusterStepTraceTime AS s
ORDER BY s._row;
