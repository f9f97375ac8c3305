-- description: Each rank of a MindSpore cluster as its cluster analysis file names it
--     (ascend_cluster_analyse_{mode}_{stages}_{ranks}_{rank}.csv: mindspore_cluster_step), one row per run
--     and rank: the run's parallel mode and size and the rank's pipeline stage, numbered from 1 as
--     MindInsight's parallel analyser does (rank // (ranks / stages) + 1). The one place the rules and
--     queries about a MindSpore cluster take its shape from.
-- column run_id: Run.
-- column rank_id: Rank (the file name's last number).
-- column parallel_mode: data-parallel, model-parallel or pipeline-parallel (from the file name).
-- column stage_num: Pipeline stages of the run (1 outside pipeline parallelism).
-- column rank_size: Ranks of the run.
-- column stage_id: The rank's pipeline stage, from 1.
SELECT DISTINCT
    s.run_id, c.rank_id, c.parallel_mode, c.stage_num, c.rank_size,
    c.rank_id / (c.rank_size / c.stage_num) + 1 AS stage_id
FROM mindspore_cluster_step AS c
JOIN source AS s ON s.id = c.source_id AND s.status = 'ok'
