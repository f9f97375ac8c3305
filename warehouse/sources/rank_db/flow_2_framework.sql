-- reads: PYTORCH_API CONNECTION_IDS
-- Framework call -> CANN call / device task / communication operator, through CONNECTION_IDS.
INSERT INTO flow (source_id, slice_out, slice_in, name, category, flow_key)
SELECT :source_id, :base_pytorch_api + a._row, g.slice_id, g.name, 'CONNECTION_IDS', CAST(c.connectionId AS TEXT)
FROM in_PYTORCH_API AS a
JOIN in_CONNECTION_IDS AS c ON c.id = a.connectionId
JOIN temp.rank_db_target AS g ON g.connection_id = c.connectionId;
