-- Reconciliation: MindSpore's FLOPs summary of one run and device (flops_summary_{device}.json) agrees
-- with the operators it sums up (flops_{device}.txt), as MindSpore's flops parser computes it: FLOPs
-- the sum of the operators' MFLOPs, FLOPS the mean of their GFLOPS, both rounded to 3 decimals (so
-- within 0.001). Lists each device whose summary differs; a run and device holding only one of the two
-- has nothing to compare.
-- examples: 200
WITH summaries AS (
    SELECT s.run_id, f.rank_id, f.source_id, f.mflops, f.gflops_per_s
    FROM mindspore_flops_summary AS f
    JOIN source AS s ON s.id = f.source_id AND s.status = 'ok'
),
ops AS (
    SELECT s.run_id, o.rank_id, min(o.source_id) AS source_id, count(*) AS operators, sum(o.mflops) AS mflops,
        avg(o.gflops_per_s) AS gflops_per_s
    FROM mindspore_flops_op AS o
    JOIN source AS s ON s.id = o.source_id AND s.status = 'ok'
    GROUP BY s.run_id, o.rank_id
)
SELECT
    m.run_id, m.rank_id, m.source_id AS summary_source_id, o.source_id AS ops_source_id, o.operators,
    m.mflops AS summary_mflops, o.mflops AS ops_mflops, m.gflops_per_s AS summary_gflops_per_s,
    o.gflops_per_s AS ops_gflops_per_s
FROM summaries AS m
JOIN ops AS o ON o.run_id = m.run_id AND o.rank_id = m.rank_id
WHERE abs(m.mflops - o.mflops) > 0.001 OR abs(m.gflops_per_s - o.gflops_per_s) > 0.001
ORDER BY abs(m.mflops - o.mflops) DESC, m.run_id, m.rank_id
