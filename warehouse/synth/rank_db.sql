-- One generated rank db (warehouse/synth/rank_db.py): the table set and declared types of a
-- real torch_npu level-1 file (reference/FORMATS.md), filled from the parameters and string ids
-- in the one-row temp table p, the strings in temp table vocab (id, value) and the rank's plan
-- (warehouse/synth/plan.py) in temp tables unit (i, step_id, pos, s, ks = kernel start, op, vector,
-- kernel_ns) and plan_step (id, k, start_ns, end_ns, comm_start, wait_end, comm_end, name). One
-- unit is one operator of a training loop:
--   PYTORCH_API: python frame > aten op > Enqueue (main thread), Dequeue (worker thread)
--   CANN_API: aclnn call > node launch (worker); TASK: the kernel on stream 2
--   COMPUTE_TASK_INFO + 10 TASK_PMU_INFO metrics; 2 callchain frames; CONNECTION_IDS
-- and each step has one allReduce (an hccl CANN call, COMMUNICATION_OP, its Notify Wait and
-- memcpy tasks on stream 4).

CREATE TABLE SESSION_TIME_INFO (startTimeNs INTEGER,endTimeNs INTEGER);
CREATE TABLE HOST_INFO (hostUid TEXT,hostName TEXT);
CREATE TABLE NPU_INFO (id INTEGER,name TEXT);
CREATE TABLE ENUM_HCCL_RDMA_TYPE (id INTEGER PRIMARY KEY,name TEXT);
CREATE TABLE ENUM_MSTX_EVENT_TYPE (id INTEGER PRIMARY KEY,name TEXT);
CREATE TABLE COMPUTE_TASK_INFO (name INTEGER,globalTaskId INTEGER PRIMARY KEY,blockDim INTEGER,mixBlockDim INTEGER,taskType INTEGER,opType INTEGER,inputFormats INTEGER,inputDataTypes INTEGER,inputShapes INTEGER,outputFormats INTEGER,outputDataTypes INTEGER,outputShapes INTEGER,attrInfo INTEGER);
CREATE TABLE ENUM_HCCL_LINK_TYPE (id INTEGER PRIMARY KEY,name TEXT);
CREATE TABLE ENUM_HCCL_TRANSPORT_TYPE (id INTEGER PRIMARY KEY,name TEXT);
CREATE TABLE NPU_MEM (type INTEGER,ddr NUMERIC,hbm NUMERIC,timestampNs INTEGER,deviceId INTEGER);
CREATE TABLE COMMUNICATION_TASK_INFO (name INTEGER,globalTaskId INTEGER,taskType INTEGER,planeId INTEGER,groupName INTEGER,notifyId INTEGER,rdmaType INTEGER,srcRank INTEGER,dstRank INTEGER,transportType INTEGER,size INTEGER,dataType INTEGER,linkType INTEGER,opId INTEGER);
CREATE TABLE TASK (startNs INTEGER,endNs INTEGER,deviceId INTEGER,connectionId INTEGER,globalTaskId INTEGER,globalPid INTEGER,taskType INTEGER,contextId INTEGER,streamId INTEGER,taskId INTEGER,modelId INTEGER);
CREATE TABLE CANN_API (startNs INTEGER,endNs INTEGER,type INTEGER,globalTid INTEGER,connectionId INTEGER PRIMARY KEY,name INTEGER);
CREATE TABLE NPU_MODULE_MEM (moduleId INTEGER,timestampNs INTEGER,totalReserved NUMERIC,deviceId INTEGER);
CREATE TABLE ENUM_HCCL_DATA_TYPE (id INTEGER PRIMARY KEY,name TEXT);
CREATE TABLE ENUM_MODULE (id INTEGER PRIMARY KEY,name TEXT);
CREATE TABLE HBM (deviceId INTEGER,timestampNs INTEGER,bandwidth NUMERIC,hbmId INTEGER,type INTEGER);
CREATE TABLE NPU_OP_MEM (operatorName INTEGER,addr INTEGER,type INTEGER,size INTEGER,timestampNs INTEGER,globalTid INTEGER,totalAllocate NUMERIC,totalReserve NUMERIC,component INTEGER,deviceId INTEGER);
CREATE TABLE LLC (deviceId INTEGER,llcId INTEGER,timestampNs INTEGER,hitRate REAL,throughput INTEGER,mode INTEGER);
CREATE TABLE SOC_BANDWIDTH_LEVEL (l2BufferBwLevel INTEGER,mataBwLevel INTEGER,timestampNs NUMERIC,deviceId INTEGER);
CREATE TABLE META_DATA (name TEXT,value TEXT);
CREATE TABLE COMMUNICATION_OP (opName INTEGER,startNs INTEGER,endNs INTEGER,connectionId INTEGER,groupName INTEGER,opId INTEGER PRIMARY KEY,relay INTEGER,retry INTEGER,dataType INTEGER,algType INTEGER,count NUMERIC,opType INTEGER);
CREATE TABLE ENUM_API_TYPE (id INTEGER PRIMARY KEY,name TEXT);
CREATE TABLE AICORE_FREQ (deviceId INTEGER,timestampNs NUMERIC,freq INTEGER);
CREATE TABLE ACC_PMU (accId INTEGER,readBwLevel INTEGER,writeBwLevel INTEGER,readOstLevel INTEGER,writeOstLevel INTEGER,timestampNs NUMERIC,deviceId INTEGER);
CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY,value TEXT);
CREATE TABLE TASK_PMU_INFO (globalTaskId INTEGER,name INTEGER,value NUMERIC);
CREATE TABLE RANK_DEVICE_MAP (rankId INTEGER, deviceId INTEGER);
CREATE TABLE STEP_TIME (id INTEGER, startNs INTEGER, endNs INTEGER);
CREATE TABLE MEMORY_RECORD (component INTEGER, timestamp INTEGER, totalAllocated INTEGER, totalReserved INTEGER, totalActive INTEGER, streamPtr INTEGER, deviceId INTEGER);
CREATE TABLE OP_MEMORY (name INTEGER, size INTEGER, allocationTime INTEGER, releaseTime INTEGER, activeReleaseTime INTEGER, duration INTEGER, activeDuration INTEGER, allocationTotalAllocated INTEGER, allocationTotalReserved INTEGER, allocationTotalActive INTEGER, releaseTotalAllocated INTEGER, releaseTotalReserved INTEGER, releaseTotalActive INTEGER, streamPtr INTEGER, deviceId INTEGER);
CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER, connectionId INTEGER, name INTEGER, sequenceNumber INTEGER, fwdThreadId INTEGER, inputDtypes INTEGER, inputShapes INTEGER, callchainId INTEGER, type INTEGER);
CREATE TABLE CONNECTION_IDS (id INTEGER, connectionId INTEGER);
CREATE TABLE PYTORCH_CALLCHAINS (id INTEGER, stack INTEGER, stackDepth INTEGER);


INSERT INTO STRING_IDS (id, value) SELECT id, value FROM vocab;

INSERT INTO PYTORCH_API
SELECT CAST(s AS TEXT), CAST(s + 9000 AS TEXT), main_gtid, NULL, frame0 + op, NULL, NULL, NULL, NULL, NULL, 50003
FROM unit, p
UNION ALL
SELECT CAST(s + 500 AS TEXT), CAST(s + 8500 AS TEXT), main_gtid, 2 * i, op0 + op, i, 0, dtypes, shapes, i, 50001
FROM unit, p
UNION ALL
SELECT CAST(s + 1000 AS TEXT), CAST(s + 1500 AS TEXT), main_gtid, 2 * i + 1, enqueue, NULL, NULL, NULL, NULL, NULL,
       50002
FROM unit, p
UNION ALL
SELECT CAST(s + 2000 AS TEXT), CAST(s + 7000 AS TEXT), worker_gtid, 2 * i + 1, dequeue0 + op, NULL, NULL, NULL, NULL,
       NULL, 50002
FROM unit, p;

INSERT INTO CONNECTION_IDS
SELECT 2 * i, conn0 + i FROM unit, p
UNION ALL
SELECT 2 * i + 1, conn0 + i FROM unit, p;

INSERT INTO PYTORCH_CALLCHAINS
SELECT i, frame0 + op, 0 FROM unit, p
UNION ALL
SELECT i, frame_main, 1 FROM unit, p;

INSERT INTO CANN_API
SELECT s + 2100, s + 6900, 20000, worker_gtid, conn0 + i, acl0 + op FROM unit, p
UNION ALL
SELECT s + 2200, s + 2300, 10000, worker_gtid, conn0 + n + i, launch FROM unit, p
UNION ALL
SELECT comm_start - 100, comm_start - 20, 5500, main_gtid, conn0 + 2 * n + k, hcom_name0 + k FROM plan_step, p;

INSERT INTO TASK
SELECT ks, ks + kernel_ns, device, conn0 + i, i, pid, CASE vector WHEN 1 THEN kernel_aivec ELSE kernel_aicore END,
       4294967295, 2, i % 65536, 4294967295
FROM unit, p
UNION ALL
-- the allReduce's tasks: Notify Wait until every rank has arrived, then the transfer
SELECT CASE j WHEN 0 THEN comm_start ELSE wait_end END, CASE j WHEN 0 THEN wait_end ELSE comm_end END, device,
       conn0 + 2 * n + k, n + 2 * k + j, pid, CASE j WHEN 0 THEN notify_wait ELSE memcpy END, 4294967295, 4,
       (n + 2 * k + j) % 65536, 4294967295
FROM plan_step, p, (SELECT 0 AS j UNION ALL SELECT 1);

INSERT INTO COMPUTE_TASK_INFO
SELECT kernel0 + op, i, CASE vector WHEN 1 THEN 48 ELSE 24 END, 0, CASE vector WHEN 1 THEN ai_vector_core ELSE ai_core END,
       optype0 + op, formats, dtypes, shapes, fmt_nd, dtype1, shape1, na
FROM unit, p;

INSERT INTO TASK_PMU_INFO
SELECT i, pmu0 + m,
       CASE m
           WHEN 0 THEN kernel_ns * (1 - vector) * 0.95 WHEN 1 THEN kernel_ns * (1 - vector) * 0.5
           WHEN 2 THEN 0.5 * (1 - vector) WHEN 3 THEN kernel_ns * (1 - vector) * 0.3
           WHEN 4 THEN kernel_ns * (1 - vector) * 0.1 WHEN 5 THEN kernel_ns * vector * 0.9
           WHEN 6 THEN kernel_ns * vector * 0.4 WHEN 7 THEN 0.45 * vector
           WHEN 8 THEN kernel_ns * vector * 0.3 ELSE kernel_ns * vector * 0.2
       END
FROM unit, p,
     (WITH RECURSIVE k(m) AS (SELECT 0 UNION ALL SELECT m + 1 FROM k WHERE m < 9) SELECT m FROM k);

-- each allReduce has its own name, the same on every rank, as real ones do (hcom_allReduce__<n>_0_1)
INSERT INTO STRING_IDS (id, value)
SELECT hcom_name0 + k, name FROM plan_step, p;

INSERT INTO COMMUNICATION_OP
SELECT hcom_name0 + k, comm_start, comm_end, conn0 + 2 * n + k, grp, k, 0, 0, 3, ring, 1048576, hcom_type
FROM plan_step, p;

INSERT INTO COMMUNICATION_TASK_INFO
SELECT hcom_name0 + k, n + 2 * k + j, CASE j WHEN 0 THEN notify_wait ELSE memcpy END, 0, grp, 5, 65535, rank,
       (rank + 1) % 8, 0, 1048576 * j, 3, 1, k
FROM plan_step, p, (SELECT 0 AS j UNION ALL SELECT 1);

-- the caching allocator: allocated grows over a step from alloc_lo to alloc_hi (activations), reserved stays
CREATE TEMP TABLE allocated AS
SELECT i, alloc_lo + (alloc_hi - alloc_lo) * pos / (units_per_step - 1) AS bytes FROM unit, p;

INSERT INTO MEMORY_RECORD
SELECT pta, s + 600, a.bytes, reserved, a.bytes, 733279888, device
FROM unit AS u JOIN allocated AS a ON a.i = u.i, p;

INSERT INTO OP_MEMORY
SELECT op0 + op, 2048 * (op + 1), s + 600, s + 8400, s + 8450, 7800, 7850, a.bytes, reserved, a.bytes,
       a.bytes - 2048 * (op + 1), reserved, a.bytes - 2048 * (op + 1), 733279888, device
FROM unit AS u JOIN allocated AS a ON a.i = u.i, p
WHERE u.i % 4 = 0;

INSERT INTO STEP_TIME
SELECT id, start_ns, end_ns FROM plan_step;

-- the whole process: the framework's reserve and 1.5 GiB of its own
INSERT INTO NPU_MEM SELECT app, 0, reserved + 1610612736, s, device FROM unit, p WHERE i % 20 = 0;
INSERT INTO HBM
SELECT device, s, 1.0e9 + (i % 7) * 1.0e8, 0, rd FROM unit, p WHERE i % 20 = 0
UNION ALL
SELECT device, s, 5.0e8 + (i % 5) * 1.0e8, 0, wr FROM unit, p WHERE i % 20 = 0;
INSERT INTO LLC SELECT device, 0, s, 80 + (i % 10), 18000000000, rd FROM unit, p WHERE i % 20 = 0;
INSERT INTO AICORE_FREQ SELECT device, s, 1800 - (i % 3) * 50 FROM unit, p WHERE i % 200 = 0;
INSERT INTO ACC_PMU SELECT j, 1, 2, 3, 4, s, device FROM unit, p, (SELECT 0 AS j UNION ALL SELECT 1) WHERE i % 20 = 0;
INSERT INTO SOC_BANDWIDTH_LEVEL SELECT 3, 5, s, device FROM unit, p WHERE i % 20 = 0;
INSERT INTO NPU_MODULE_MEM
SELECT j, s, 1048576 * (j + 1), device FROM unit, p, (SELECT 0 AS j UNION ALL SELECT 7 UNION ALL SELECT 13)
WHERE i % 20 = 0;
INSERT INTO NPU_OP_MEM
SELECT kernel0 + op, 20617629794304 + u.i * 4096, allocate, 2048 * (op + 1), ks, worker_gtid, a.bytes,
       reserved, ge, device
FROM unit AS u JOIN allocated AS a ON a.i = u.i, p WHERE u.i % 10 = 0;

INSERT INTO META_DATA VALUES ('SCHEMA_VERSION_MICRO', '0'), ('SCHEMA_VERSION_MINOR', '0'),
    ('SCHEMA_VERSION_MAJOR', '1'), ('SCHEMA_VERSION', '1.0.0'), ('ENV_VARIABLES', '{}');
INSERT INTO HOST_INFO SELECT '3538958389648580163', host FROM p;
INSERT INTO RANK_DEVICE_MAP SELECT rank, device FROM p;
INSERT INTO SESSION_TIME_INFO SELECT min(start_ns) - 1000000, max(end_ns) + 1000000 FROM plan_step;
INSERT INTO NPU_INFO SELECT device, 'Ascend910B' FROM p;
INSERT INTO ENUM_API_TYPE VALUES (5000, 'runtime'), (5500, 'hccl'), (10000, 'node'), (15000, 'model'),
    (20000, 'acl'), (50001, 'op'), (50002, 'queue'), (50003, 'trace'), (50004, 'mstx');
INSERT INTO ENUM_HCCL_DATA_TYPE VALUES (0, 'INT8'), (1, 'INT16'), (2, 'INT32'), (3, 'FP16'), (4, 'FP32'),
    (11, 'BFP16'), (65534, 'N/A'), (65535, 'INVALID_TYPE');
INSERT INTO ENUM_HCCL_LINK_TYPE VALUES (0, 'ON_CHIP'), (1, 'HCCS'), (2, 'PCIE'), (3, 'ROCE');
INSERT INTO ENUM_HCCL_RDMA_TYPE VALUES (0, 'RDMA_SEND_NOTIFY'), (1, 'RDMA_SEND_PAYLOAD'), (65535, 'INVALID_TYPE');
INSERT INTO ENUM_HCCL_TRANSPORT_TYPE VALUES (0, 'SDMA'), (1, 'RDMA'), (2, 'LOCAL');
INSERT INTO ENUM_MODULE VALUES (0, 'SLOG'), (7, 'HCCL'), (13, 'RUNTIME');
INSERT INTO ENUM_MSTX_EVENT_TYPE VALUES (0, 'marker'), (1, 'push/pop'), (2, 'start/end'), (3, 'marker_ex');

CREATE INDEX TaskIndex ON TASK (startNs,globalTaskId);
CREATE INDEX CommunicationTaskIndex ON COMMUNICATION_TASK_INFO (globalTaskId);
DROP TABLE temp.allocated;
