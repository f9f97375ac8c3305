-- description: Each MindSpore device's mean step and its phases, the figure MindInsight's step trace
--     summary and proposer read: the average record of the input that answers the device's steps
--     (mindspore_step_average: MindSpore's intermediate step_trace_raw_{device}_detail_time.csv states its
--     mean over the steps after the first, which may be over more steps than a file cut short keeps), else,
--     where that input writes no average (the raw training trace), the mean of its steps MindSpore's
--     average counts (view mindspore_step_phase), one row per run and device. One rule for both the
--     summary query and the iteration interval rule.
-- column run_id: Run.
-- column rank_id: Device.
-- column source_id: Input the device's steps came from.
-- column source_kind: Kind of that input (mindspore_training_trace_raw, mindspore_step_trace_csv).
-- column mean_source: Where the means come from: average_record (the input's own) or steps (computed here).
-- column average_row: CSV data-record number of the average record; NULL when the means are computed.
-- column total_steps: Steps the input holds.
-- column averaged_steps: Of those, the steps MindSpore's average counts (the steps after the first; the
--     first only when it is the only one); an average record of a file cut short is over more.
-- column total_ns: Mean step time in ns.
-- column iteration_interval_ns: Mean iteration interval in ns (the previous step's end to the forward pass).
-- column fp_and_bp_ns: Mean forward and backward pass in ns.
-- column tail_ns: Mean iteration tail in ns (the end of the backward pass to the step's end).
WITH computed AS (
    SELECT
        run_id, rank_id, source_id, source_kind, device_steps AS total_steps, sum(averaged) AS averaged_steps,
        avg(CASE WHEN averaged = 1 THEN total_ns END) AS total_ns,
        avg(CASE WHEN averaged = 1 THEN iteration_interval_ns END) AS iteration_interval_ns,
        avg(CASE WHEN averaged = 1 THEN fp_and_bp_ns END) AS fp_and_bp_ns,
        avg(CASE WHEN averaged = 1 THEN tail_ns END) AS tail_ns
    FROM mindspore_step_phase
    GROUP BY run_id, rank_id, source_id, source_kind, device_steps
)
SELECT
    c.run_id, c.rank_id, c.source_id, c.source_kind,
    CASE WHEN a.source_id IS NULL THEN 'steps' ELSE 'average_record' END AS mean_source,
    a.source_row AS average_row, c.total_steps, c.averaged_steps,
    CASE WHEN a.source_id IS NULL THEN c.total_ns ELSE a.total_ns END AS total_ns,
    CASE WHEN a.source_id IS NULL THEN c.iteration_interval_ns ELSE a.iteration_interval_ns END AS iteration_interval_ns,
    CASE WHEN a.source_id IS NULL THEN c.fp_and_bp_ns ELSE a.fp_and_bp_ns END AS fp_and_bp_ns,
    CASE WHEN a.source_id IS NULL THEN c.tail_ns ELSE a.tail_ns END AS tail_ns
FROM computed AS c
LEFT JOIN mindspore_step_average AS a ON a.source_id = c.source_id
