-- torch_npu's analysis.db beside a generated rank db (warehouse/synth/rank_db.py), derived from
-- that rank db (attached as r) the way torch_npu derives it: StepTraceTime per step (us),
-- CommAnalyzerTime per communication operator (start in us, times in ms),
-- CommAnalyzerBandwidth and CommAnalyzerMatrix per operator and link (sizes in MB).
-- msprof-analyze's cluster_time_summary and communication recipes read these tables.

CREATE TABLE StepTraceTime (step TEXT, computing NUMERIC, communication_not_overlapped NUMERIC, overlapped NUMERIC, communication NUMERIC, free NUMERIC, stage NUMERIC, bubble NUMERIC, communication_not_overlapped_and_exclude_receive NUMERIC, preparing NUMERIC);
CREATE TABLE CommAnalyzerBandwidth (hccl_op_name TEXT, group_name TEXT, transport_type TEXT, transit_size NUMERIC, transit_time NUMERIC, bandwidth NUMERIC, large_packet_ratio NUMERIC, package_size NUMERIC, count NUMERIC, total_duration NUMERIC, step TEXT, type TEXT);
CREATE TABLE CommAnalyzerMatrix (hccl_op_name TEXT, group_name TEXT, src_rank TEXT, dst_rank TEXT, transport_type TEXT, transit_size NUMERIC, transit_time NUMERIC, bandwidth NUMERIC, step TEXT, type TEXT, op_name TEXT);
CREATE TABLE CommAnalyzerTime (hccl_op_name TEXT, group_name TEXT, start_timestamp NUMERIC, elapse_time NUMERIC, transit_time NUMERIC, wait_time NUMERIC, synchronization_time NUMERIC, idle_time NUMERIC, step TEXT, type TEXT);

-- the device activity of each step (kernels on stream 2, HCCL operators), starting in its window
-- (TaskIndex named: SQLite would rather build an index on streamId, 1000x slower at 1M kernels)
CREATE TEMP TABLE activity AS
SELECT st.id AS step, 'compute' AS kind, t.startNs AS lo, t.endNs AS hi
FROM r.STEP_TIME AS st
CROSS JOIN r.TASK AS t INDEXED BY TaskIndex ON t.streamId = 2 AND t.startNs >= st.startNs AND t.startNs < st.endNs
UNION ALL
SELECT st.id, 'communication', o.startNs, o.endNs
FROM r.STEP_TIME AS st JOIN r.COMMUNICATION_OP AS o ON o.startNs >= st.startNs AND o.startNs < st.endNs;

-- the length of the union of each kind's intervals: each interval counts past the latest end before it
CREATE TEMP TABLE busy AS
SELECT step, kind, SUM(MAX(0, hi - MAX(lo, COALESCE(before, lo)))) AS ns
FROM (
    SELECT step, kind, lo, hi,
           MAX(hi) OVER (PARTITION BY step, kind ORDER BY lo, hi ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
           AS before
    FROM activity
)
GROUP BY step, kind;

-- Computing, Communication (the generator never overlaps them: Overlapped 0), Free (the gaps
-- between the first and the last activity), Preparing (host step start to the first activity)
INSERT INTO StepTraceTime
SELECT CAST(st.id AS TEXT), COALESCE(k.ns, 0) / 1000.0, COALESCE(c.ns, 0) / 1000.0, 0, COALESCE(c.ns, 0) / 1000.0,
       (a.last - a.first - COALESCE(k.ns, 0) - COALESCE(c.ns, 0)) / 1000.0, (a.last - a.first) / 1000.0, 0,
       COALESCE(c.ns, 0) / 1000.0, (a.first - st.startNs) / 1000.0
FROM r.STEP_TIME AS st
JOIN (SELECT step, MIN(lo) AS first, MAX(hi) AS last FROM activity GROUP BY step) AS a ON a.step = st.id
LEFT JOIN busy AS k ON k.step = st.id AND k.kind = 'compute'
LEFT JOIN busy AS c ON c.step = st.id AND c.kind = 'communication';

-- each HCCL operator with its step and its Notify Wait (the wait for the last rank to arrive)
CREATE TEMP TABLE op AS
SELECT n.value AS name, g.value AS grp, o.startNs AS start_ns, o.endNs - o.startNs AS dur,
       (SELECT st.id FROM r.STEP_TIME AS st WHERE o.startNs >= st.startNs AND o.startNs < st.endNs) AS step,
       (SELECT COALESCE(SUM(t.endNs - t.startNs), 0) FROM r.TASK AS t JOIN r.STRING_IDS AS w ON w.id = t.taskType
        WHERE t.startNs >= o.startNs AND t.startNs < o.endNs AND t.connectionId = o.connectionId
          AND w.value = 'Notify Wait') AS wait
FROM r.COMMUNICATION_OP AS o
JOIN r.STRING_IDS AS n ON n.id = o.opName
JOIN r.STRING_IDS AS g ON g.id = o.groupName;

-- Elapse = Transit + Wait + Idle; the wait precedes the transfer, so Synchronization = Wait
INSERT INTO CommAnalyzerTime
SELECT name, grp, start_ns / 1000.0, dur / 1e6, (dur - wait) / 1e6, wait / 1e6, wait / 1e6, 0, 'step' || step,
       'collective'
FROM op;

INSERT INTO CommAnalyzerBandwidth
SELECT name, grp, l.transport, 1.048576, (dur - wait) / 1e6, l.bw, 0, 1.048576, 1, (dur - wait) / 1e6, 'step' || step,
       'collective'
FROM op, (SELECT 'HCCS' AS transport, 17.5 AS bw UNION ALL SELECT 'SDMA', 0) AS l;

INSERT INTO CommAnalyzerMatrix
SELECT 'allreduce-top1', grp, CAST(m.rank AS TEXT), CAST(m.peer AS TEXT), m.transport, 1.048576, (dur - wait) / 1e6,
       m.bw, 'step' || step, 'collective', name
FROM op, (
    SELECT rankId AS rank, rankId AS peer, 'LOCAL' AS transport, 496.2 AS bw FROM r.RANK_DEVICE_MAP
    UNION ALL
    SELECT rankId, (rankId + 1) % 8, 'HCCS', 17.5 FROM r.RANK_DEVICE_MAP
) AS m;
DROP TABLE temp.op;
DROP TABLE temp.busy;
DROP TABLE temp.activity;
