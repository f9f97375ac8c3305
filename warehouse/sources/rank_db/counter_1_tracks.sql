-- One counter track per sampled series of the rank db.
INSERT INTO counter_track (source_id, rank_id, name, unit)
SELECT :source_id, :rank_id, track, MIN(unit)
FROM temp.rank_db_sample
GROUP BY track
ORDER BY track;
