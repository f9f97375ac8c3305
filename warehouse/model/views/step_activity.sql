-- description: What the device did in each step of each rank, as torch_npu's step trace counts
--     it (prof_db_parse/_trace_step_time_db_parser.py, prof_view/_trace_step_time_parser.py):
--     the answering kernels and HCCL operators of the step (kernel_step), the HCCL tasks that
--     start in its span (step_span: from the host step's start to the next step's), and in a
--     trace without device kernels its GPU kernels (a GPU kineto trace: gpu_kernel) or its overlap
--     analysis (a torch_npu trace_view.json alone: trace_overlap_interval). One row
--     per interval: kind compute or communication as the step trace counts the item's class
--     (op_class.step_trace_compute: every class but communication is compute),
--     receive_ns its length for hcom_receive*, counted 1 for the rows the rank's torch_npu
--     version measured communication over (run fact stepTraceCommunication: the HCCL tasks or,
--     by default, the operators).
-- column run_id: Run of the rank.
-- column rank_id: Rank.
-- column step_id: Step number.
-- column summarized: 1 when the profiler's own summary answers for the rank
--     (step_marker.summarized).
-- column kind: compute or communication.
-- column unit: What the interval is: kernel (a device kernel or a trace's kernel slice),
--     operator (an HCCL operator), task (an HCCL task, read only for a rank whose step trace
--     measured them) or interval (a lane of a torch_npu trace's overlap analysis).
-- column counted: 1 when the step trace of the torch_npu version that wrote the rank counts it
--     (step_breakdown reads these), 0 for the HCCL operators of a rank measured over its HCCL
--     tasks.
-- column lo: Start of the interval in ns.
-- column hi: End of the interval in ns.
-- column receive_ns: Its length when it is a receive (hcom_receive*: pipeline bubble), else 0.
WITH steps AS (
    SELECT
        sp.run_id, sp.rank_id, sp.step_id, sp.start_ns, sp.end_ns, sp.source_id AS timeline_source_id,
        st.summarized, sp.span_end_ns
    FROM step_span AS sp
    JOIN step_marker AS st ON st.source_id = sp.source_id AND st.rank_id = sp.rank_id AND st.step_id = sp.step_id
),
kernel_steps AS (
    -- each step with the input answering its rank's kernels and the HCCL rows its step trace
    -- measured; steps of a rank without one read the timeline's kernel slices instead (CROSS JOIN
    -- keeps SQLite's join order: steps first, then the (source_id, ts) / (thread_id, ts) index
    -- ranges of each step)
    SELECT
        s.*, a.source_id AS kernel_source_id,
        coalesce((
            SELECT max(m.value) FROM run_metadata AS m
            WHERE m.source_id = a.source_id AND m.name = 'stepTraceCommunication'
        ), 'operator') AS communication_unit
    FROM steps AS s
    LEFT JOIN answer_source AS a ON a.run_id = s.run_id AND a.rank_id = s.rank_id AND a.fact = 'kernel'
),
device AS (
    SELECT s.run_id, s.rank_id, s.step_id, s.summarized, ks.ts, ks.dur, ks.name, ks.op_class,
        CASE WHEN ks.op_class = 'communication' THEN 'operator' ELSE 'kernel' END AS unit,
        CASE WHEN ks.table_name = 'communication_op' AND s.communication_unit <> 'operator' THEN 0 ELSE 1 END
            AS counted
    -- kernel_step first (CROSS JOIN keeps SQLite's order): each item's step is computed once; the
    -- other order recomputes every item of the rank for each of its steps
    FROM kernel_step AS ks
    CROSS JOIN kernel_steps AS s ON s.run_id = ks.run_id AND s.rank_id = ks.rank_id AND s.step_id = ks.step_id
    UNION ALL
    SELECT s.run_id, s.rank_id, s.step_id, s.summarized, sl.ts, sl.dur, t.name, 'communication' AS op_class,
        'task' AS unit, 1 AS counted
    FROM kernel_steps AS s
    CROSS JOIN communication_task AS t ON t.source_id = s.kernel_source_id
    CROSS JOIN _slice AS sl ON sl.id = t.slice_id AND sl.ts >= s.start_ns
        AND sl.ts < s.span_end_ns
    WHERE s.communication_unit = 'task'
    UNION ALL
    SELECT s.run_id, s.rank_id, s.step_id, s.summarized, g.ts, g.dur, g.name, g.op_class,
        'kernel' AS unit, 1 AS counted
    FROM kernel_steps AS s
    CROSS JOIN gpu_kernel AS g ON g.source_id = s.timeline_source_id AND g.ts >= s.start_ns
        AND g.ts < s.span_end_ns
    WHERE s.kernel_source_id IS NULL
    UNION ALL
    SELECT s.run_id, s.rank_id, s.step_id, s.summarized, o.ts, o.dur, o.name, o.op_class,
        'interval' AS unit, 1 AS counted
    FROM kernel_steps AS s
    CROSS JOIN trace_overlap_interval AS o ON o.source_id = s.timeline_source_id AND o.ts >= s.start_ns
        AND o.ts < s.span_end_ns
    WHERE s.kernel_source_id IS NULL
)
SELECT
    d.run_id,
    d.rank_id,
    d.step_id,
    d.summarized,
    CASE WHEN c.step_trace_compute = 0 THEN 'communication' ELSE 'compute' END AS kind,
    d.unit,
    d.counted,
    d.ts AS lo,
    d.ts + d.dur AS hi,
    CASE WHEN c.step_trace_compute = 0 AND d.name LIKE 'hcom\_receive%' ESCAPE '\' THEN d.dur ELSE 0 END AS receive_ns
FROM device AS d
LEFT JOIN op_class AS c ON c.op_class = d.op_class
WHERE d.dur > 0
