-- reads: PYTORCH_API CONNECTION_IDS
-- Framework calls sharing a connection (task queue enqueue -> dequeue, forward -> backward):
-- each call to the next one in time (rank_db_link is in (connection, time) order).
INSERT INTO flow (source_id, slice_out, slice_in, name, category, flow_key)
SELECT :source_id, l.slice_id, n.slice_id, 'framework', 'CONNECTION_IDS', CAST(l.connection_id AS TEXT)
FROM temp.rank_db_link AS l
JOIN temp.rank_db_link AS n ON n.rowid = l.rowid + 1 AND n.connection_id = l.connection_id;
