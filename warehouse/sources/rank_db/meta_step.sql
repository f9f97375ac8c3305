-- reads: STEP_TIME
-- STEP_TIME: the profiled training steps of the rank.
-- The id goes in as it is: step.step_id's INTEGER affinity stores a numeric id written as text
-- ('3', ' 3', 3.0) as the integer 3, and migration 0010's trigger refuses any other (text, 3.5, a
-- BLOB): the file then fails, its reason naming STEP_TIME and step.step_id.
INSERT INTO step (rank_id, step_id, start_ns, end_ns, source_id)
SELECT :rank_id, s.id, CAST(s.startNs AS INTEGER), CAST(s.endNs AS INTEGER), :source_id
FROM in_STEP_TIME AS s;
