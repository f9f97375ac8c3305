-- Reconciliation: MindSpore's steps of one run and device read from the raw training trace
-- (training_trace.46.dev.profiler_default_tag.*, which answers the steps: step_source) agree with the same
-- steps of MindSpore's intermediate written from it (step_trace_raw_{device}_detail_time.csv):
-- the same points and phases (to 1 us) for every step number both hold. Lists each step whose
-- start, end, forward pass or backward end differs, the largest difference first; a run holding
-- only one of the two has nothing to compare.
-- examples: 200
WITH kinds AS (
    SELECT t.*, s.run_id, s.kind
    FROM mindspore_step_trace AS t
    JOIN source AS s ON s.id = t.source_id AND s.status = 'ok'
),
pairs AS (
    SELECT
        r.run_id, r.rank_id, r.step_id, r.source_id AS raw_source_id, i.source_id AS intermediate_source_id,
        max(abs(r.start_ns - i.start_ns), abs(r.end_ns - i.end_ns), abs(r.fp_point_ns - i.fp_point_ns),
            abs(r.bp_point_ns - i.bp_point_ns)) AS differs_ns,
        r.total_ns AS raw_total_ns, i.total_ns AS intermediate_total_ns
    FROM kinds AS r
    JOIN kinds AS i ON i.run_id = r.run_id AND i.rank_id = r.rank_id AND i.step_id = r.step_id
        AND i.kind = 'mindspore_step_trace_csv'
    WHERE r.kind = 'mindspore_training_trace_raw'
)
SELECT run_id, rank_id, step_id, raw_source_id, intermediate_source_id, differs_ns, raw_total_ns, intermediate_total_ns
FROM pairs
WHERE differs_ns > 1000
ORDER BY differs_ns DESC, run_id, rank_id, step_id
