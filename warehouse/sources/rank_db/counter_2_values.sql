-- The samples, on their tracks.
INSERT INTO _counter (track_id, ts, value, source_id)
SELECT t.id, s.ts, s.value, :source_id
FROM temp.rank_db_sample AS s
JOIN counter_track AS t ON t.source_id = :source_id AND t.name = s.track;
