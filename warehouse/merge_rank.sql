-- A part's ranks: new ones become this source's; a rank already held keeps its owner and
-- only gains what it did not know (device, host), as rank_db.py's declaration does.
-- Returns the owner of each rank, so the caller counts the ranks this source declared.
INSERT INTO main.rank (rank_id, device_id, host_name, source_id)
SELECT rank_id, device_id, host_name, :source_id FROM part.rank WHERE true ORDER BY rank_id
ON CONFLICT (rank_id) DO UPDATE SET
    device_id = COALESCE(rank.device_id, excluded.device_id),
    host_name = COALESCE(rank.host_name, excluded.host_name)
RETURNING source_id;
