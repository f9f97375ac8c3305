-- reads: META_DATA
-- META_DATA (SCHEMA_VERSION, ENV_VARIABLES, distributed_args, ...) as run facts of the rank.
INSERT INTO run_metadata (source_id, rank_id, name, value)
SELECT :source_id, :rank_id, m.name, m.value
FROM in_META_DATA AS m;
