-- reads: STEP_TIME
-- STEP_TIME: the profiled training steps of the rank.
INSERT INTO step (rank_id, step_id, start_ns, end_ns, source_id)
SELECT :rank_id, s.id, CAST(s.startNs AS INTEGER), CAST(s.endNs AS INTEGER), :source_id
FROM in_STEP_TIME AS s;
