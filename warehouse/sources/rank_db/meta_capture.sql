-- The capture the file exported, as a digest (rank_db._capture: the session's times and the first
-- and last device tasks, in times and ids): two files of one run and rank with the same digest are
-- one capture exported twice (source_twin lets one of them answer). No row when the file cannot tell.
INSERT INTO run_metadata (source_id, rank_id, name, value)
SELECT :source_id, :rank_id, 'captureDigest', :capture
WHERE :capture IS NOT NULL;
