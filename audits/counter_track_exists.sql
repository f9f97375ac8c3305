-- Every counter sample belongs to an existing counter track.
SELECT c.rowid AS counter_rowid, c.track_id, c.ts, c.value, c.source_id
FROM _counter AS c
WHERE NOT EXISTS (SELECT 1 FROM counter_track AS t WHERE t.id = c.track_id)
