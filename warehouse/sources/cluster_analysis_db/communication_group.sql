-- CommunicationGroup (CommunicationGroupMapping in a --data_simplification run and in msprof-analyze
-- 26's default run): one row per communication group, its ranks written '(0, 1)' or '(0,1)', into
-- communication_group as communication_group.json's comm_group_parallel_info is read: section the
-- input table's name, the ranks as a JSON array, an empty group id or pg_name (the group is in no
-- parallel_group_info) NULL.
INSERT INTO communication_group (
    source_id, source_row, section, group_type, rank_set, group_name, group_id, pg_name
)
SELECT
    :source_id, g._row, :table, nullif(g.type, ''), rank_set_json(g.rank_set), nullif(g.group_name, ''),
    nullif(g.group_id, ''), nullif(g.pg_name, '')
FROM in_CommunicationGroup AS g
ORDER BY g._row;
