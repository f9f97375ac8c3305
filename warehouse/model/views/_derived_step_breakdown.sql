-- Helper (included by step_answer, not a view itself): a step breakdown derived from the rows, by
-- step_breakdown or by the answers-first stage (staged_step_marker), in step_answer's columns with
-- basis 'derived'; the includer follows it with FROM <the view> AS d.
SELECT
    d.run_id, d.rank_id, d.step_id, d.start_ns, d.end_ns, d.computing_ns, d.communication_not_overlapped_ns,
    d.overlapped_ns, d.communication_ns, d.free_ns, d.preparing_ns, d.stage_ns, d.bubble_ns, 'derived' AS basis
