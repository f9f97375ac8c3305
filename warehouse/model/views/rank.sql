-- description: The ranks of each run: one row per (run, rank) some ok input belongs to.
-- column run_id: Run the rank belongs to.
-- column rank_id: Global rank number in the run's cluster; -1 where the input leaves it unset.
-- column device_id: NPU device the rank ran on, when an input says.
-- column host_name: Host name of the machine, when an input says.
-- column source_id: First input of the rank (source.id).
-- column source_count: Number of ok inputs of the rank.
SELECT
    run_id,
    rank_id,
    max(device_id) AS device_id,
    max(host_name) AS host_name,
    min(id) AS source_id,
    count(*) AS source_count
FROM source
WHERE status = 'ok' AND rank_id IS NOT NULL
GROUP BY run_id, rank_id
