-- The inputs that are another input's twin (source_twin: one capture exported twice into one
-- run's rank), each with the input that answers in its place, for `warehouse info`.
SELECT t.run_id, t.rank_id, t.source_id, twin.path, t.answered_by, answering.path AS answered_by_path
FROM source_twin AS t
JOIN source AS twin ON twin.id = t.source_id
JOIN source AS answering ON answering.id = t.answered_by
ORDER BY t.run_id, t.rank_id, t.source_id
