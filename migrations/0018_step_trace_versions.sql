-- torch_npu's step trace per version (issue 32): the breakdown derived from a rank db follows the
-- arithmetic of the torch_npu that wrote it. Until October 2024 (6.0.rc3's betas, 6.0.rc2 and
-- earlier) torch_npu's prof_db_parse/trace_step_time_db_parser.py measured Communication over
-- the HCCL tasks (COMMUNICATION_TASK_INFO joined to TASK); since 6.0.rc3 (commit 7e8ae592) it
-- measures it over the HCCL operators (COMMUNICATION_OP). The rank db source records which one as
-- the run fact stepTraceCommunication ('task' or 'operator', rank_db/meta_step_trace.sql); a
-- rank without it is read as 'operator'. step_activity gains the HCCL tasks, with what each row
-- is (unit) and whether the rank's step trace counts it (counted); step_breakdown reads the
-- counted rows, the communication reconciliation the operators.

-- The HCCL tasks of a rank db are searched per input.
CREATE INDEX communication_task_source ON communication_task (source_id);

DROP VIEW step_breakdown;
DROP VIEW step_activity;

-- What the device did in each step of each rank, as torch_npu's step trace counts it
-- (prof_db_parse/_trace_step_time_db_parser.py, prof_view/_trace_step_time_parser.py):
-- the answering kernels, HCCL operators and HCCL tasks that start in the step (from the host
-- step's start to the next step's; the profiler's own Step Id where the input gives one), and in
-- a trace without device kernels (a GPU kineto trace) the 'kernel' slices, NCCL ones as
-- communication. One row per interval: kind compute or communication, receive_ns its length for
-- hcom_receive*, counted 1 for the rows the rank's torch_npu version measured communication over
-- (run fact stepTraceCommunication: the HCCL tasks or, by default, the operators).
CREATE VIEW step_activity AS
WITH steps AS (
    SELECT
        a.run_id, st.rank_id, st.step_id, st.start_ns, st.end_ns, st.source_id AS timeline_source_id,
        st.summarized,
        lead(st.start_ns) OVER (PARTITION BY a.run_id, st.rank_id, st.summarized ORDER BY st.start_ns, st.step_id)
            AS next_start_ns
    FROM step_marker AS st
    JOIN answer_source AS a ON a.source_id = st.source_id AND a.fact = 'timeline'
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
    SELECT s.run_id, s.rank_id, s.step_id, s.summarized, k.ts, k.dur, k.name,
        CASE WHEN k.op_class = 'communication' THEN 'communication' ELSE 'compute' END AS kind,
        CASE WHEN k.op_class = 'communication' THEN 'operator' ELSE 'kernel' END AS unit, 1 AS counted
    FROM kernel_steps AS s
    CROSS JOIN kernel AS k ON k.source_id = s.kernel_source_id AND k.ts >= s.start_ns
        AND k.ts < coalesce(s.next_start_ns, 9223372036854775807)
    WHERE coalesce(k.step_id, s.step_id) = s.step_id
    UNION ALL
    SELECT s.run_id, s.rank_id, s.step_id, s.summarized, c.ts, c.dur, c.name, 'communication' AS kind,
        'operator' AS unit, CASE WHEN s.communication_unit = 'operator' THEN 1 ELSE 0 END AS counted
    FROM kernel_steps AS s
    CROSS JOIN communication_op AS c ON c.source_id = s.kernel_source_id AND c.ts >= s.start_ns
        AND c.ts < coalesce(s.next_start_ns, 9223372036854775807)
    UNION ALL
    SELECT s.run_id, s.rank_id, s.step_id, s.summarized, sl.ts, sl.dur, t.name, 'communication' AS kind,
        'task' AS unit, 1 AS counted
    FROM kernel_steps AS s
    CROSS JOIN communication_task AS t ON t.source_id = s.kernel_source_id
    CROSS JOIN _slice AS sl ON sl.id = t.slice_id AND sl.ts >= s.start_ns
        AND sl.ts < coalesce(s.next_start_ns, 9223372036854775807)
    WHERE s.communication_unit = 'task'
    UNION ALL
    SELECT s.run_id, s.rank_id, s.step_id, s.summarized, sl.ts, sl.dur, n.value,
        CASE WHEN lower(n.value) LIKE '%nccl%' THEN 'communication' ELSE 'compute' END AS kind,
        'kernel' AS unit, 1 AS counted
    FROM kernel_steps AS s
    CROSS JOIN process AS p ON p.source_id = s.timeline_source_id
    CROSS JOIN thread AS t ON t.process_id = p.id
    CROSS JOIN _slice AS sl ON sl.thread_id = t.id AND sl.ts >= s.start_ns
        AND sl.ts < coalesce(s.next_start_ns, 9223372036854775807)
    CROSS JOIN string AS c ON c.id = sl.category_id
    LEFT JOIN string AS n ON n.id = sl.name_id
    WHERE s.kernel_source_id IS NULL AND c.value IN ('kernel', 'Kernel')
)
SELECT
    -- Run of the rank.
    run_id,
    -- Rank.
    rank_id,
    -- Step number.
    step_id,
    -- 1 when the profiler's own summary answers for the rank (step_marker.summarized).
    summarized,
    -- compute or communication.
    kind,
    -- What the interval is: kernel (a device kernel or a trace's kernel slice), operator (an HCCL
    -- operator) or task (an HCCL task, read only for a rank whose step trace measured them).
    unit,
    -- 1 when the step trace of the torch_npu version that wrote the rank counts it (step_breakdown
    -- reads these), 0 for the HCCL operators of a rank measured over its HCCL tasks.
    counted,
    -- Start of the interval in ns.
    ts AS lo,
    -- End of the interval in ns.
    ts + dur AS hi,
    -- Its length when it is a receive (hcom_receive*: pipeline bubble), else 0.
    CASE WHEN kind = 'communication' AND name LIKE 'hcom\_receive%' ESCAPE '\' THEN dur ELSE 0 END AS receive_ns
FROM device
WHERE dur > 0;

-- The step breakdown derived from the rows, in the profiler's terms and arithmetic (README,
-- "Definitions"): computing = |compute union|, communication = |communication union|,
-- overlapped = their intersection, free = the gaps between the first and last device activity,
-- stage = that span less the bubble (receives), preparing = host step start -> first activity.
-- Communication is the HCCL rows the rank's torch_npu version measured (step_activity.counted).
-- warehouse check reconciles it with the profiler's own summary (step_trace_time).
CREATE VIEW step_breakdown AS
WITH ordered AS (
    SELECT
        run_id, rank_id, step_id, summarized, kind, lo, hi, receive_ns,
        max(CASE WHEN kind = 'compute' THEN hi END) OVER previous AS compute_reach,
        max(CASE WHEN kind = 'communication' THEN hi END) OVER previous AS communication_reach,
        max(hi) OVER previous AS busy_reach
    FROM step_activity
    WHERE counted = 1
    WINDOW previous AS (PARTITION BY run_id, rank_id, step_id, summarized ORDER BY lo, hi
                        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
),
added AS (
    -- in start order, each interval adds what it covers past the furthest end before it:
    -- summed, that is the length of the union (of its kind, and of both kinds)
    SELECT
        run_id, rank_id, step_id, summarized, kind, lo, hi, receive_ns,
        max(0, hi - max(lo, coalesce(CASE WHEN kind = 'compute' THEN compute_reach ELSE communication_reach END, lo))) AS kind_added,
        max(0, hi - max(lo, coalesce(busy_reach, lo))) AS busy_added
    FROM ordered
),
totals AS (
    SELECT
        run_id, rank_id, step_id, summarized,
        sum(CASE WHEN kind = 'compute' THEN kind_added ELSE 0 END) AS computing_ns,
        sum(CASE WHEN kind = 'communication' THEN kind_added ELSE 0 END) AS communication_ns,
        sum(busy_added) AS busy_ns,
        min(lo) AS first_ns,
        max(hi) AS last_ns,
        sum(receive_ns) AS bubble_ns
    FROM added
    GROUP BY run_id, rank_id, step_id, summarized
),
steps AS (
    SELECT a.run_id, st.rank_id, st.step_id, st.start_ns, st.end_ns, st.summarized
    FROM step_marker AS st
    JOIN answer_source AS a ON a.source_id = st.source_id AND a.fact = 'timeline'
)
SELECT
    -- Run of the rank.
    s.run_id,
    -- Rank.
    s.rank_id,
    -- Step number.
    s.step_id,
    -- Host start of the step (the profiler's step marker), in ns.
    s.start_ns,
    -- Host end of the step, in ns.
    s.end_ns,
    -- 1 when the profiler's own summary answers for the rank (step_answer then reads it).
    s.summarized,
    -- Time some compute kernel ran, in ns (Computing).
    coalesce(t.computing_ns, 0) AS computing_ns,
    -- Communication not overlapped by compute, in ns (Communication(Not Overlapped)).
    coalesce(t.busy_ns - t.computing_ns, 0) AS communication_not_overlapped_ns,
    -- Communication overlapped by compute, in ns (Overlapped).
    coalesce(t.computing_ns + t.communication_ns - t.busy_ns, 0) AS overlapped_ns,
    -- Time some communication ran, in ns (Communication).
    coalesce(t.communication_ns, 0) AS communication_ns,
    -- Gaps between the first and the last device activity, in ns (Free).
    coalesce(t.last_ns - t.first_ns - t.busy_ns, 0) AS free_ns,
    -- First to last device activity less the bubble, in ns (Stage).
    coalesce(t.last_ns - t.first_ns - t.bubble_ns, 0) AS stage_ns,
    -- Receive operators (hcom_receive*), in ns (Bubble).
    coalesce(t.bubble_ns, 0) AS bubble_ns,
    -- Communication not overlapped, receives excluded, in ns.
    coalesce(t.busy_ns - t.computing_ns - t.bubble_ns, 0) AS communication_not_overlapped_exclude_receive_ns,
    -- Host step start to the first device activity, in ns (Preparing).
    coalesce(t.first_ns - s.start_ns, 0) AS preparing_ns
FROM steps AS s
LEFT JOIN totals AS t ON t.run_id = s.run_id AND t.rank_id = s.rank_id AND t.step_id = s.step_id
    AND t.summarized = s.summarized;
