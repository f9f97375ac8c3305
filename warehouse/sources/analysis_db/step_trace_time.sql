-- StepTraceTime (one row per step, times in us) into step_trace_time, as step_trace_time.csv is read.
INSERT INTO step_trace_time (
    source_id, source_row, rank_id, step_id, scope, scope_key, computing_ns, communication_not_overlapped_ns,
    overlapped_ns, communication_ns, free_ns, stage_ns, bubble_ns, communication_not_overlapped_exclude_receive_ns,
    preparing_ns
)
SELECT
    :source_id, s._row, :rank_id, step_number(s.step), 'rank', CAST(:rank_id AS TEXT), us_to_ns(s.computing),
    us_to_ns(s.communication_not_overlapped), us_to_ns(s.overlapped), us_to_ns(s.communication), us_to_ns(s.free),
    us_to_ns(s.stage), us_to_ns(s.bubble), us_to_ns(s.communication_not_overlapped_and_exclude_receive),
    us_to_ns(s.preparing)
FROM in_StepTraceTime AS s
ORDER BY s._row;
