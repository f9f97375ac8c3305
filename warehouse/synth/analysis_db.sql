-- torch_npu's analysis.db beside a generated rank db (warehouse/synth/rank_db.py), derived from
-- that rank db (attached as r) the way torch_npu derives it: StepTraceTime per step (us),
-- CommAnalyzerTime per communication operator (start in us, times in ms),
-- CommAnalyzerBandwidth and CommAnalyzerMatrix per operator and link (sizes in MB).
-- msprof-analyze's cluster_time_summary and communication recipes read these tables.

CREATE TABLE StepTraceTime (step TEXT, computing NUMERIC, communication_not_overlapped NUMERIC, overlapped NUMERIC, communication NUMERIC, free NUMERIC, stage NUMERIC, bubble NUMERIC, communication_not_overlapped_and_exclude_receive NUMERIC, preparing NUMERIC);
CREATE TABLE CommAnalyzerBandwidth (hccl_op_name TEXT, group_name TEXT, transport_type TEXT, transit_size NUMERIC, transit_time NUMERIC, bandwidth NUMERIC, large_packet_ratio NUMERIC, package_size NUMERIC, count NUMERIC, total_duration NUMERIC, step TEXT, type TEXT);
CREATE TABLE CommAnalyzerMatrix (hccl_op_name TEXT, group_name TEXT, src_rank TEXT, dst_rank TEXT, transport_type TEXT, transit_size NUMERIC, transit_time NUMERIC, bandwidth NUMERIC, step TEXT, type TEXT, op_name TEXT);
CREATE TABLE CommAnalyzerTime (hccl_op_name TEXT, group_name TEXT, start_timestamp NUMERIC, elapse_time NUMERIC, transit_time NUMERIC, wait_time NUMERIC, synchronization_time NUMERIC, idle_time NUMERIC, step TEXT, type TEXT);

CREATE TEMP TABLE op AS
SELECT n.value AS name, g.value AS grp, o.startNs AS start_ns, o.endNs - o.startNs AS dur,
       (SELECT st.id FROM r.STEP_TIME AS st WHERE o.startNs >= st.startNs AND o.startNs < st.endNs) AS step
FROM r.COMMUNICATION_OP AS o
JOIN r.STRING_IDS AS n ON n.id = o.opName
JOIN r.STRING_IDS AS g ON g.id = o.groupName;

INSERT INTO StepTraceTime
SELECT CAST(st.id AS TEXT), k.busy / 1000.0, c.busy / 1000.0, 0, c.busy / 1000.0,
       (st.endNs - st.startNs - k.busy - c.busy) / 1000.0, (st.endNs - st.startNs) / 1000.0, 0, c.busy / 1000.0, 0
FROM r.STEP_TIME AS st
JOIN (
    SELECT st2.id, COALESCE(SUM(t.endNs - t.startNs), 0) AS busy
    FROM r.STEP_TIME AS st2 LEFT JOIN r.TASK AS t ON t.streamId = 2 AND t.startNs >= st2.startNs AND t.startNs < st2.endNs
    GROUP BY st2.id
) AS k ON k.id = st.id
JOIN (
    SELECT st3.id, COALESCE(SUM(o.dur), 0) AS busy
    FROM r.STEP_TIME AS st3 LEFT JOIN op AS o ON o.step = st3.id
    GROUP BY st3.id
) AS c ON c.id = st.id;

INSERT INTO CommAnalyzerTime
SELECT name, grp, start_ns / 1000.0, dur / 1e6, dur * 0.6 / 1e6, dur * 0.3 / 1e6, dur * 0.05 / 1e6, dur * 0.05 / 1e6,
       'step' || step, 'collective'
FROM op;

INSERT INTO CommAnalyzerBandwidth
SELECT name, grp, l.transport, 1.048576, dur * 0.6 / 1e6, l.bw, 0, 1.048576, 1, dur * 0.6 / 1e6, 'step' || step,
       'collective'
FROM op, (SELECT 'HCCS' AS transport, 17.5 AS bw UNION ALL SELECT 'SDMA', 0) AS l;

INSERT INTO CommAnalyzerMatrix
SELECT 'allreduce-top1', grp, CAST(m.rank AS TEXT), CAST(m.peer AS TEXT), m.transport, 1.048576, dur * 0.6 / 1e6,
       m.bw, 'step' || step, 'collective', name
FROM op, (
    SELECT rankId AS rank, rankId AS peer, 'LOCAL' AS transport, 496.2 AS bw FROM r.RANK_DEVICE_MAP
    UNION ALL
    SELECT rankId, (rankId + 1) % 8, 'HCCS', 17.5 FROM r.RANK_DEVICE_MAP
) AS m;
DROP TABLE temp.op;
