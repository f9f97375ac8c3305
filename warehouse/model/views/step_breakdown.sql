-- description: The step breakdown derived from the rows, in the profiler's terms and arithmetic
--     (README, "Definitions"): computing = |compute union|, communication = |communication
--     union|, overlapped = their intersection, free = the gaps between the first and last
--     device activity, stage = that span less the bubble (receives), preparing = host step
--     start -> first activity. Communication is the HCCL rows the rank's torch_npu version
--     measured (step_activity.counted). warehouse check reconciles it with the profiler's own
--     summary (step_trace_time). A step in which the rank's inputs hold no device activity (its
--     device data ends before the step, as a MindSpore HWTS log cut short of its step trace) has
--     no breakdown: its figures are null (unknown), not zero.
-- column run_id: Run of the rank.
-- column rank_id: Rank.
-- column step_id: Step number.
-- column start_ns: Host start of the step (the profiler's step marker), in ns.
-- column end_ns: Host end of the step, in ns.
-- column summarized: 1 when the profiler's own summary answers for the rank (step_answer then
--     reads it).
-- column computing_ns: Time some compute kernel ran, in ns (Computing).
-- column communication_not_overlapped_ns: Communication not overlapped by compute, in ns
--     (Communication(Not Overlapped)).
-- column overlapped_ns: Communication overlapped by compute, in ns (Overlapped).
-- column communication_ns: Time some communication ran, in ns (Communication).
-- column free_ns: Gaps between the first and the last device activity, in ns (Free).
-- column stage_ns: First to last device activity less the bubble, in ns (Stage).
-- column bubble_ns: Receive operators (hcom_receive*), in ns (Bubble).
-- column communication_not_overlapped_exclude_receive_ns: Communication not overlapped,
--     receives excluded, in ns.
-- column preparing_ns: Host step start to the first device activity, in ns (Preparing).
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
    JOIN step_source AS a ON a.source_id = st.source_id
)
SELECT
    s.run_id,
    s.rank_id,
    s.step_id,
    s.start_ns,
    s.end_ns,
    s.summarized,
    t.computing_ns,
    t.busy_ns - t.computing_ns AS communication_not_overlapped_ns,
    t.computing_ns + t.communication_ns - t.busy_ns AS overlapped_ns,
    t.communication_ns,
    t.last_ns - t.first_ns - t.busy_ns AS free_ns,
    t.last_ns - t.first_ns - t.bubble_ns AS stage_ns,
    t.bubble_ns,
    t.busy_ns - t.computing_ns - t.bubble_ns AS communication_not_overlapped_exclude_receive_ns,
    t.first_ns - s.start_ns AS preparing_ns
FROM steps AS s
LEFT JOIN totals AS t ON t.run_id = s.run_id AND t.rank_id = s.rank_id AND t.step_id = s.step_id
    AND t.summarized = s.summarized
