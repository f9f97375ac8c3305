-- reads: HOST_INFO
-- HOST_INFO as two facts per row: hostName and hostUid.
INSERT INTO run_metadata (source_id, rank_id, name, value)
SELECT :source_id, :rank_id, 'hostName', h.hostName FROM in_HOST_INFO AS h
UNION ALL
SELECT :source_id, :rank_id, 'hostUid', h.hostUid FROM in_HOST_INFO AS h;
