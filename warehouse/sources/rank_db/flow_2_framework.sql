-- reads: PYTORCH_API CONNECTION_IDS
-- Framework call -> CANN call / device task / communication operator, through CONNECTION_IDS.
INSERT INTO flow (source_id, slice_out, slice_in, name, category, flow_key)
SELECT :source_id, l.slice_id, g.slice_id, g.name, 'CONNECTION_IDS', CAST(l.connection_id AS TEXT)
FROM temp.rank_db_link AS l
JOIN temp.rank_db_target AS g ON g.connection_id = l.connection_id;
