-- The number of steps of each run (the step ids step_answer holds, over every rank; step -1,
-- a rank's whole capture, is not a step): the M of a merged finding's 'in N of M steps'.
SELECT run_id, count(DISTINCT step_id) AS steps
FROM step_answer
WHERE step_id >= 0
GROUP BY run_id
