-- description: Each MindSpore device's step interval as MindInsight's parallel analyser gives it
--     (get_step_interval): the iteration interval of the average record of its step trace
--     (mindspore_step_average: MindSpore's mean over the steps after the first, as the file states it),
--     one row per run and device, with the device's pipeline stage where the run's cluster analysis files
--     give it (mindspore_cluster_rank) and how far it is above the mean of the run's devices.
-- column run_id: Run.
-- column rank_id: Device (rank).
-- column source_id: Input of the average record.
-- column source_row: Its record in that input.
-- column stage_id: The rank's pipeline stage, from 1; NULL where the run has no cluster analysis file for it.
-- column step_interval_ns: Mean iteration interval in ns (MindInsight shows it in ms to 4 decimals).
-- column ranks: Devices of the run with an average record.
-- column ranks_mean_ns: Mean of their step intervals in ns.
-- column excess: step_interval_ns / ranks_mean_ns - 1 (NULL when the mean is 0).
WITH intervals AS (
    SELECT s.run_id, a.rank_id, a.source_id, a.source_row, a.iteration_interval_ns AS step_interval_ns
    FROM mindspore_step_average AS a
    JOIN source AS s ON s.id = a.source_id AND s.status = 'ok'
),
means AS (
    SELECT
        run_id, rank_id, source_id, source_row, step_interval_ns,
        COUNT(*) OVER (PARTITION BY run_id) AS ranks,
        AVG(step_interval_ns) OVER (PARTITION BY run_id) AS ranks_mean_ns
    FROM intervals
)
SELECT
    m.run_id, m.rank_id, m.source_id, m.source_row, c.stage_id, m.step_interval_ns, m.ranks, m.ranks_mean_ns,
    m.step_interval_ns / NULLIF(m.ranks_mean_ns, 0) - 1 AS excess
FROM means AS m
LEFT JOIN mindspore_cluster_rank AS c ON c.run_id = m.run_id AND c.rank_id = m.rank_id
