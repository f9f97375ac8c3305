-- Reconciliation: MindSpore's FLOPs per scope of one run and device (flops_scope_{device}.json) agrees with
-- its FLOPs summary (flops_summary_{device}.json): both sum the same operators of flops_{device}.txt, so
-- the links from Total (one per subgraph) add up to the summary's FLOPs, within 0.001 per link (each is
-- rounded to 3 decimals). Lists each device whose total differs; a run and device holding only one of the
-- two has nothing to compare.
-- examples: 200
WITH scopes AS (
    SELECT s.run_id, f.rank_id, f.source_id, count(*) AS links, sum(f.mflops) AS mflops
    FROM mindspore_flops_scope AS f
    JOIN source AS s ON s.id = f.source_id AND s.status = 'ok'
    WHERE f.parent_scope = 'Total'
    GROUP BY s.run_id, f.rank_id, f.source_id
),
summaries AS (
    SELECT s.run_id, f.rank_id, f.source_id, f.mflops
    FROM mindspore_flops_summary AS f
    JOIN source AS s ON s.id = f.source_id AND s.status = 'ok'
)
SELECT
    c.run_id, c.rank_id, c.source_id AS scope_source_id, m.source_id AS summary_source_id, c.links,
    c.mflops AS scope_mflops, m.mflops AS summary_mflops
FROM scopes AS c
JOIN summaries AS m ON m.run_id = c.run_id AND m.rank_id = c.rank_id
WHERE abs(c.mflops - m.mflops) > 0.001 * (c.links + 1)
ORDER BY abs(c.mflops - m.mflops) DESC, c.run_id, c.rank_id
