-- ClusterBaseInfo (key, value: msprof-analyze 26 writes one row, 'distributed_args', Megatron's parallel
-- sizes as a rank's profiler_metadata.json holds them less its 'rank', as JSON) into run_metadata as
-- the cluster's facts (rank_id NULL): parallel_size reads the sizes from there as from a rank's.
INSERT INTO run_metadata (source_id, rank_id, name, value)
SELECT :source_id, NULL, b.key, b.value
FROM in_ClusterBaseInfo AS b
ORDER BY b._row;
