-- Helper (included by step_compute and by the cross-rank queries, not a view itself): the median
-- of each measure over a step's ranks, from a CTE named step_measures (run_id, step_id, rank_id,
-- measure, value) that the includer writes before the include line; it defines the CTE
-- step_medians (run_id, step_id, measure, ranks, median): the middle value, or the mean of the
-- two middle ones (ties ordered by rank), the one median of the model.
step_measure_positions AS (
    SELECT
        run_id, step_id, measure, value,
        ROW_NUMBER() OVER (PARTITION BY run_id, step_id, measure ORDER BY value, rank_id) AS position,
        COUNT(*) OVER (PARTITION BY run_id, step_id, measure) AS ranks
    FROM step_measures
),
step_medians AS (
    SELECT
        run_id, step_id, measure, MAX(ranks) AS ranks,
        AVG(CASE WHEN 2 * position IN (ranks, ranks + 1, ranks + 2) THEN value END) AS median
    FROM step_measure_positions
    GROUP BY run_id, step_id, measure
)
