-- reads: PYTORCH_CALLCHAINS
-- PYTORCH_CALLCHAINS, one row per frame, the frame text resolved.
INSERT INTO callchain (source_id, source_row, rank_id, callchain_id, depth, frame)
SELECT :source_id, c._row, :rank_id, c.id, c.stackDepth, s.value
FROM in_PYTORCH_CALLCHAINS AS c
LEFT JOIN in_STRING_IDS AS s ON s.id = c.stack;
