-- description: Every interval of the overlap analysis a torch_npu trace (trace_view.json) draws for
--     its device: the slices of the answering timeline's process "Overlap Analysis" on its lanes
--     "Computing" and "Communication", which torch_npu writes from its device tasks as the unions its
--     step trace counts (step_trace_time.csv's Computing and Communication). What step_activity
--     reads for a rank no kernel input answers (a trace_view.json alone): the step breakdown is then
--     the profiler's own intervals, not none. op_class communication for the Communication lane,
--     NULL (no kernel class: compute to the step trace, op_class) for the Computing lane.
-- column run_id: Run of the timeline.
-- column rank_id: Rank of the timeline (-1 when unknown).
-- column source_id: The timeline input (answer_source, fact timeline).
-- column slice_id: The interval's slice (slice.id).
-- column ts: Start time in ns.
-- column dur: Duration in ns.
-- column name: The lane: Computing or Communication.
-- column op_class: communication for the Communication lane, NULL for the Computing lane.
SELECT
    a.run_id, a.rank_id, a.source_id, sl.id AS slice_id, sl.ts, sl.dur, t.name,
    CASE t.name WHEN 'Communication' THEN 'communication' END AS op_class
FROM answer_source AS a
JOIN process AS p ON p.source_id = a.source_id AND p.name = 'Overlap Analysis'
JOIN thread AS t ON t.process_id = p.id AND t.name IN ('Computing', 'Communication')
JOIN _slice AS sl ON sl.thread_id = t.id
WHERE a.fact = 'timeline'
