"""factory-boy factory that writes ``ascend_pytorch_profiler_{rank}.db`` files (seed 001 + CANN tables).

``RankDbFactory(path=tmp_path / "ascend_pytorch_profiler_0.db", rank_id=0)`` writes a
small, complete rank db: every seed-001 table (PYTORCH_API with TEXT timestamps as real
files declare them, CONNECTION_IDS, PYTORCH_CALLCHAINS, MEMORY_RECORD, OP_MEMORY,
RANK_DEVICE_MAP, STEP_TIME, GC_RECORD, ROCE, NIC, HCCS, PCIE), the CANN tables of real
files (TASK, COMPUTE_TASK_INFO, TASK_PMU_INFO, COMMUNICATION_OP, COMMUNICATION_TASK_INFO,
CANN_API, the sampled tables, META_DATA, HOST_INFO, ...), STRING_IDS and ENUM_* tables;
MSTX_EVENTS and OVERLAP_ANALYSIS are empty unless ``mstx`` / ``overlap`` give their rows;
MEMCPY_INFO and ENUM_MEMCPY_OPERATION (profiler level 2) are written only when ``memcpy`` gives copies.
``omit`` leaves optional tables out (ACC_PMU by default, as in older files), ``extra_table``
adds a table no reader knows, ``block_columns`` picks the COMPUTE_TASK_INFO column
generation (``blockDim`` 2025 files, ``blockNum`` current CANN). ``tiling`` adds
``tiling_steps`` steps of tiling-dependent operators (:func:`add_tiling`, seed 002): tiled
on the host every step (``"host"``, shapes static; ``"host_dynamic"``, shapes changing per
step) or sunk to the device (``"sunk"``: AICPU tiling -> wait -> NOP x 8 -> kernel ->
model task update -> record).

The returned :class:`RankDb` keeps every table's rows so tests compare with them.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

import factory

#: first string id of the framework's strings in real files (CANN strings start at 0)
FRAMEWORK_STRING_BASE = 1 << 28
API_TYPES = {5000: "runtime", 5500: "hccl", 10000: "node", 15000: "model", 20000: "acl",
             50001: "op", 50002: "queue", 50003: "trace", 50004: "mstx"}
HCCL_DATA_TYPES = {0: "INT8", 3: "FP16", 4: "FP32", 11: "BFP16", 65535: "INVALID_TYPE"}
HCCL_LINK_TYPES = {0: "ON_CHIP", 1: "HCCS", 2: "PCIE", 3: "ROCE"}
HCCL_RDMA_TYPES = {0: "RDMA_SEND_NOTIFY", 1: "RDMA_SEND_PAYLOAD", 65535: "INVALID_TYPE"}
HCCL_TRANSPORT_TYPES = {0: "SDMA", 1: "RDMA", 2: "LOCAL"}
MODULES = {0: "SLOG", 7: "HCCL", 13: "RUNTIME"}


def global_tid(pid: int, tid: int) -> int:
    return (pid << 32) | tid


@dataclass
class RankDb:
    """A written rank db: its path, rank, device, and each table's DDL and rows."""

    path: Path
    rank_id: int
    device_id: int
    ts0: int
    tables: dict[str, tuple[str, list[tuple]]] = field(default_factory=dict)

    def rows(self, table: str) -> list[tuple]:
        return self.tables[table][1] if table in self.tables else []


class _Strings:
    """STRING_IDS as the writers fill it: CANN ids from 0, framework ids from 1 << 28."""

    def __init__(self):
        self.ids: dict[str, int] = {}
        self.next = {False: 0, True: FRAMEWORK_STRING_BASE}

    def __call__(self, value: str, framework: bool = False) -> int:
        if value not in self.ids:
            self.ids[value] = self.next[framework]
            self.next[framework] += 1
        return self.ids[value]


#: MSTX_EVENTS and OVERLAP_ANALYSIS as CANN's msprof writes them
MSTX_EVENTS_DDL = ("startNs INTEGER,endNs INTEGER,eventType INTEGER,rangeId INTEGER,category INTEGER,message INTEGER,"
                   "globalTid INTEGER,endGlobalTid INTEGER,domainId INTEGER,connectionId INTEGER")
OVERLAP_ANALYSIS_DDL = "id INTEGER PRIMARY KEY,deviceId INTEGER,startNs NUMERIC,endNs NUMERIC,type INTEGER"
#: ENUM_MSTX_EVENT_TYPE and ENUM_OVERLAP_ANALYSIS_TYPE ids by name
MSTX_EVENT_TYPES = {"marker": 0, "push/pop": 1, "start/end": 2, "marker_ex": 3}
OVERLAP_TYPES = {"computing": 0, "communication": 1, "communication_not_overlapped": 2, "free": 3}
#: connectionId of an mstx event without a device task (UINT32_MAX)
NO_CONNECTION = 4294967295
#: MEMCPY_INFO and ENUM_MEMCPY_OPERATION as CANN writes them; the directions in aclrtMemcpyKind's order
#: (1 named as MindStudio Insight's server tests name it, HardWareRepoTest.cpp)
MEMCPY_INFO_DDL = "globalTaskId NUMERIC, size NUMERIC, memcpyOperation NUMERIC"
MEMCPY_OPERATIONS = {0: "host to host", 1: "host to device", 2: "device to host", 3: "device to device"}
#: global task ids of the copies add_memcpy adds (past build_tables' and add_tiling's)
MEMCPY_TASK = 90_000


def build_tables(rank_id: int, device_id: int, ts0: int, rank_in_map: bool, block_columns: str):
    """Every table of the db: name -> (column DDL, rows)."""
    strings = _Strings()
    s = strings

    def f(value: str) -> int:
        return strings(value, framework=True)

    t = ts0
    main, worker = global_tid(100, 101), global_tid(100, 102)
    tables: dict[str, tuple[str, list[tuple]]] = {}
    pytorch_ddl = ("startNs TEXT, endNs TEXT, globalTid INTEGER, connectionId INTEGER, name INTEGER, "
                   "sequenceNumber INTEGER, fwdThreadId INTEGER, inputDtypes INTEGER, inputShapes INTEGER, "
                   "callchainId INTEGER, type INTEGER")
    # python trace > op > op > enqueue on the main thread; the dequeue on the worker thread.
    tables["PYTORCH_API"] = (pytorch_ddl, [
        (str(t), str(t + 10_000), main, None, f("train.py(10): step"), None, None, None, None, None, 50003),
        (str(t + 1_000), str(t + 9_000), main, None, f("aten::linear"), 1, 0, f("float;float"),
         f('"8,16;16,16"'), 0, 50001),
        (str(t + 2_000), str(t + 8_000), main, 0, f("aten::matmul"), 2, 0, f("float;float"),
         f('"8,16;16,16"'), None, 50001),
        (str(t + 3_000), str(t + 3_500), main, 1, f("Enqueue"), None, None, None, None, None, 50002),
        (str(t + 4_000), str(t + 7_000), worker, 2, f("Dequeue@aten::matmul"), None, None, None, None, None,
         50002),
        (str(t + 9_500), str(t + 9_500), main, None, f("mark"), None, None, None, None, None, 50004),
    ])
    tables["CONNECTION_IDS"] = ("id INTEGER, connectionId INTEGER", [(0, 700), (1, 600), (2, 600)])
    tables["PYTORCH_CALLCHAINS"] = ("id INTEGER, stack INTEGER, stackDepth INTEGER", [
        (0, f("train.py(10): step"), 0), (0, f("model.py(5): forward"), 1),
    ])
    tables["MEMORY_RECORD"] = (
        "component INTEGER, timestamp INTEGER, totalAllocated INTEGER, totalReserved INTEGER, "
        "totalActive INTEGER, streamPtr INTEGER, deviceId INTEGER", [
            (f("PTA"), t + 100, 1024, 2048, 1024, 733279888, device_id),
            (f("PTA"), t + 200, 3072, 4096, 3072, 733279888, device_id),
            (f("GE"), t + 300, 512, 4096, 512, 733279888, device_id),
        ])
    tables["OP_MEMORY"] = (
        "name INTEGER, size INTEGER, allocationTime INTEGER, releaseTime INTEGER, activeReleaseTime INTEGER, "
        "duration INTEGER, activeDuration INTEGER, allocationTotalAllocated INTEGER, "
        "allocationTotalReserved INTEGER, allocationTotalActive INTEGER, releaseTotalAllocated INTEGER, "
        "releaseTotalReserved INTEGER, releaseTotalActive INTEGER, streamPtr INTEGER, deviceId INTEGER", [
            (f("aten::matmul"), 2048, t + 2_100, t + 7_900, t + 7_950, 5_800, 5_850, 3072, 4096, 3072, 1024,
             4096, 1024, 733279888, device_id),
            (f("aten::linear"), 512, t + 1_100, t + 8_900, t + 8_950, 7_800, 7_850, 512, 4096, 512, 0, 4096, 0,
             733279888, device_id),
        ])
    tables["RANK_DEVICE_MAP"] = ("rankId INTEGER, deviceId INTEGER", [(rank_id if rank_in_map else -1, device_id)])
    tables["STEP_TIME"] = ("id INTEGER, startNs INTEGER, endNs INTEGER", [
        (1, t, t + 8_500), (2, t + 8_500, t + 20_000),
    ])
    tables["GC_RECORD"] = ("startNs INTEGER, endNs INTEGER, globalTid INTEGER", [(t + 9_600, t + 9_900, main)])
    port_ddl = ("deviceId INTEGER, timestampNs INTEGER, bandwidth INTEGER, rxPacketRate NUMERIC, "
                "rxByteRate NUMERIC, rxPackets INTEGER, rxBytes INTEGER, rxErrors INTEGER, rxDropped INTEGER, "
                "txPacketRate NUMERIC, txByteRate NUMERIC, txPackets INTEGER, txBytes INTEGER, txErrors INTEGER, "
                "txDropped INTEGER, funcId INTEGER")
    tables["ROCE"] = (port_ddl, [
        (device_id, t + 1_000, 25_000_000_000, 100.5, 1.5e9, 1000, 4096000, 0, 0, 90.5, 1.25e9, 900, 3686400,
         1, 0, 0),
        (device_id, t + 2_000, 25_000_000_000, 110.5, 1.6e9, 1100, 4505600, 0, 2, 95.0, 1.3e9, 950, 3891200,
         1, 0, 0),
    ])
    tables["NIC"] = (port_ddl, [
        (device_id, t + 1_000, 10_000_000_000, 10.0, 2.0e6, 10, 40960, 0, 0, 8.0, 1.0e6, 8, 32768, 0, 0, 1),
        (device_id, t + 2_000, 10_000_000_000, 12.0, 2.5e6, 12, 49152, 0, 0, 9.0, 1.1e6, 9, 36864, 0, 0, 1),
    ])
    tables["HCCS"] = ("deviceId INTEGER, timestampNs INTEGER, txThroughput NUMERIC, rxThroughput NUMERIC", [
        (device_id, t + 1_000, 3.5e10, 3.25e10), (device_id, t + 2_000, 3.0e10, 2.75e10),
    ])
    pcie_fields = [f"{side}{kind}{stat}" for side in ("tx", "rx")
                   for kind in ("Post", "Nonpost", "Cpl", "NonpostLatency") for stat in ("Min", "Max", "Avg")
                   if not (side == "rx" and kind == "NonpostLatency")]
    tables["PCIE"] = (
        "deviceId INTEGER, timestampNs INTEGER, " + ", ".join(f"{name} NUMERIC" for name in pcie_fields),
        [(device_id, t + 1_000, *[float(1000 * (i + 1)) for i in range(len(pcie_fields))])],
    )
    tables["CANN_API"] = (
        "startNs INTEGER, endNs INTEGER, type INTEGER, globalTid INTEGER, connectionId INTEGER PRIMARY KEY, "
        "name INTEGER", [
            (t + 4_100, t + 6_900, 20000, worker, 600, s("aclnnMatmul")),
            (t + 4_200, t + 4_300, 10000, worker, 601, s("launch")),
        ])
    tables["TASK"] = (
        "startNs INTEGER, endNs INTEGER, deviceId INTEGER, connectionId INTEGER, globalTaskId INTEGER, "
        "globalPid INTEGER, taskType INTEGER, contextId INTEGER, streamId INTEGER, taskId INTEGER, "
        "modelId INTEGER", [
            (t + 5_000, t + 7_500, device_id, 600, 10, 3136493, s("KERNEL_AICORE"), 4294967295, 2, 1, 4294967295),
            (t + 7_600, t + 7_700, device_id, 601, 11, 3136493, s("EVENT_RECORD"), 4294967295, 2, 2, 4294967295),
            (t + 8_000, t + 9_000, device_id, 700, 12, 3136493, s("Notify Wait"), 4294967295, 3, 1, 4294967295),
        ])
    block, mix_block = {"blockDim": ("blockDim", "mixBlockDim"), "blockNum": ("blockNum", "mixBlockNum")}[block_columns]
    compute_ddl = (f"name INTEGER, globalTaskId INTEGER PRIMARY KEY, {block} INTEGER, {mix_block} INTEGER, "
                   "taskType INTEGER, opType INTEGER, inputFormats INTEGER, inputDataTypes INTEGER, "
                   "inputShapes INTEGER, outputFormats INTEGER, outputDataTypes INTEGER, outputShapes INTEGER, "
                   "attrInfo INTEGER")
    tables["COMPUTE_TASK_INFO"] = (compute_ddl, [
        (s("MatMul_1"), 10, 20, 0, s("AI_CORE"), s("MatMul"), s("ND;ND"), s("FLOAT16;FLOAT16"),
         s('"8,16;16,16"'), s("ND"), s("FLOAT16"), s('"8,16"'), s("N/A")),
    ])
    pmu = {"aic_total_time": 2400.4, "aic_total_cycles": 4320, "aic_mac_time": 1200.6, "aic_mac_ratio": 0.5,
           "aic_mte2_time": 800, "aic_mte2_ratio": 0.333, "aiv_total_time": 0, "aic_l2_hit_rate": 0.9}
    tables["TASK_PMU_INFO"] = ("globalTaskId INTEGER, name INTEGER, value NUMERIC",
                               [(10, s(name), value) for name, value in pmu.items()])
    tables["COMMUNICATION_OP"] = (
        "opName INTEGER, startNs INTEGER, endNs INTEGER, connectionId INTEGER, groupName INTEGER, "
        "opId INTEGER PRIMARY KEY, relay INTEGER, retry INTEGER, dataType INTEGER, algType INTEGER, "
        "count NUMERIC, opType INTEGER", [
            (s("hcom_allReduce__1"), t + 7_900, t + 9_100, 700, s("group0"), 1, 0, 0, 3, s("MESH-RING"), 1024,
             s("hcom_allReduce_")),
        ])
    tables["COMMUNICATION_TASK_INFO"] = (
        "name INTEGER, globalTaskId INTEGER, taskType INTEGER, planeId INTEGER, groupName INTEGER, "
        "notifyId INTEGER, rdmaType INTEGER, srcRank INTEGER, dstRank INTEGER, transportType INTEGER, "
        "size INTEGER, dataType INTEGER, linkType INTEGER, opId INTEGER", [
            (s("hcom_allReduce__1"), 12, s("Notify Wait"), 0, s("group0"), 5, 65535, 0, 1, 0, 2048, 3, 1, 1),
        ])
    tables["NPU_MEM"] = ("type INTEGER, ddr NUMERIC, hbm NUMERIC, timestampNs INTEGER, deviceId INTEGER", [
        (s("app"), 0, 2212077568, t + 1_000, device_id), (s("app"), 0, 2312077568, t + 2_000, device_id),
    ])
    tables["HBM"] = ("deviceId INTEGER, timestampNs INTEGER, bandwidth NUMERIC, hbmId INTEGER, type INTEGER", [
        (device_id, t + 1_000, 1.5e9, 0, s("read")), (device_id, t + 1_000, 0.5e9, 0, s("write")),
    ])
    tables["LLC"] = ("deviceId INTEGER, llcId INTEGER, timestampNs INTEGER, hitRate REAL, throughput INTEGER, "
                     "mode INTEGER", [(device_id, 0, t + 1_000, 85.9, 18168939544, s("read"))])
    tables["AICORE_FREQ"] = ("deviceId INTEGER, timestampNs NUMERIC, freq INTEGER", [
        (device_id, t, 1800), (device_id, t + 5_000, 1650),
    ])
    tables["ACC_PMU"] = (
        "accId INTEGER, readBwLevel INTEGER, writeBwLevel INTEGER, readOstLevel INTEGER, writeOstLevel INTEGER, "
        "timestampNs NUMERIC, deviceId INTEGER", [(0, 1, 2, 3, 4, t + 1_000, device_id)])
    tables["SOC_BANDWIDTH_LEVEL"] = (
        "l2BufferBwLevel INTEGER, mataBwLevel INTEGER, timestampNs NUMERIC, deviceId INTEGER",
        [(3, 5, t + 1_000, device_id)])
    tables["NPU_MODULE_MEM"] = ("moduleId INTEGER, timestampNs INTEGER, totalReserved NUMERIC, deviceId INTEGER", [
        (7, t + 1_000, 1048576, device_id), (13, t + 1_000, 2097152, device_id),
    ])
    tables["NPU_OP_MEM"] = (
        "operatorName INTEGER, addr INTEGER, type INTEGER, size INTEGER, timestampNs INTEGER, globalTid INTEGER, "
        "totalAllocate NUMERIC, totalReserve NUMERIC, component INTEGER, deviceId INTEGER", [
            (s("MatMul_1"), 20617629794304, s("allocate"), 51445760, t + 5_000, worker, 51511296, 78381056,
             s("GE"), device_id),
            (s("MatMul_1"), 20617629794304, s("release"), 51445760, t + 7_500, worker, 65536, 78381056,
             s("GE"), device_id),
        ])
    tables["META_DATA"] = ("name TEXT, value TEXT", [("SCHEMA_VERSION", "1.0.0"), ("SCHEMA_VERSION_MAJOR", "1")])
    tables["HOST_INFO"] = ("hostUid TEXT, hostName TEXT", [("3538958389648580163", f"node{rank_id // 8}")])
    tables["SESSION_TIME_INFO"] = ("startTimeNs INTEGER, endTimeNs INTEGER", [(t - 1_000, t + 30_000)])
    tables["NPU_INFO"] = ("id INTEGER, name TEXT", [(device_id, "Ascend910B")])
    # empty unless the program marked ranges (add_mstx) or the file holds an overlap analysis (add_overlap)
    tables["MSTX_EVENTS"] = (MSTX_EVENTS_DDL, [])
    tables["OVERLAP_ANALYSIS"] = (OVERLAP_ANALYSIS_DDL, [])
    for name, values in (("API_TYPE", API_TYPES), ("HCCL_DATA_TYPE", HCCL_DATA_TYPES),
                         ("HCCL_LINK_TYPE", HCCL_LINK_TYPES), ("HCCL_RDMA_TYPE", HCCL_RDMA_TYPES),
                         ("HCCL_TRANSPORT_TYPE", HCCL_TRANSPORT_TYPES), ("MODULE", MODULES)):
        tables[f"ENUM_{name}"] = ("id INTEGER PRIMARY KEY, name TEXT", sorted(values.items()))
    tables["STRING_IDS"] = ("id INTEGER PRIMARY KEY, value TEXT", sorted((i, v) for v, i in strings.ids.items()))
    return tables


#: The tiling-dependent operators add_tiling runs once per step: (op type, kernel name, host
#: tiling ns, input shapes with {seq} the sequence length).
TILED_OPS = (
    ("FusedInferAttentionScore", "FusedInferAttentionScore_1", 30_000, '"1,8,{seq},128;1,8,{seq},128"'),
    ("GroupedMatmul", "GroupedMatmul_2", 12_000, '"{seq},4096;8,4096,1536"'),
)
#: where add_tiling's steps start (after build_tables' rows), how long each is, the first step id
TILING_BASE_NS, TILING_STEP_NS, TILING_FIRST_STEP = 100_000, 1_000_000, 3
#: NOP tasks between the wait and the kernel: the 910B's prefetch_num (seed 002; 310P: 5)
TILING_NOPS = 8
#: the streams: the kernels' (as build_tables' kernel) and the attached "tiling" stream
MAIN_STREAM, TILING_STREAM = 2, 5
#: the CANN thread (build_tables' worker) and the first connection / global task id add_tiling uses
TILING_THREAD, TILING_CONNECTION, TILING_TASK = global_tid(100, 102), 2000, 100
NO_MODEL, TILING_MODEL, NO_CONTEXT, PID = 4294967295, 1, 4294967295, 3136493


def add_tiling(tables: dict, ts0: int, device_id: int, mode, steps: int = 3) -> None:
    """Add ``steps`` steps (ids from TILING_FIRST_STEP) running TILED_OPS, tiled as ``mode`` says
    (one mode for all, or a tuple of one per operator of TILED_OPS: some sunk, some not).

    ``"host"`` and ``"host_dynamic"``: per operator, on the CANN worker thread, an acl call
    ``aclnn<Op>`` holding the host tiling call ``<Op>_Tiling`` (as real files name it) and the
    node-level ``launch`` whose connection id leads to the AI Core task (KERNEL_AICORE with its
    COMPUTE_TASK_INFO row); shapes are the same every step (sequence 128) or grow with the step
    (``host_dynamic``: 128, 256, ...). ``"sunk"`` (seed 002): no host call; on the attached
    stream the AICPU tiling task (KERNEL_AICPU), MODEL_TASK_UPDATE and EVENT_RECORD, on the
    kernel's stream EVENT_WAIT, TILING_NOPS NOP tasks and the kernel, all of model TILING_MODEL.
    STRING_IDS is extended with the new names, SESSION_TIME_INFO to the last step's end.
    """
    modes = (mode,) * len(TILED_OPS) if isinstance(mode, str) else tuple(mode)
    assert len(modes) == len(TILED_OPS) and set(modes) <= {"host", "host_dynamic", "sunk"}, mode
    strings = s = _strings_of(tables)
    cann, task, compute = tables["CANN_API"][1], tables["TASK"][1], tables["COMPUTE_TASK_INFO"][1]
    connection, global_task = TILING_CONNECTION, TILING_TASK
    task_ids = {MAIN_STREAM: 1000, TILING_STREAM: 1000}

    def device_task(start, end, task_type, stream, connection_id=None, model=TILING_MODEL):
        nonlocal global_task
        task_ids[stream] += 1
        task.append((start, end, device_id, connection_id, global_task, PID, s(task_type), NO_CONTEXT, stream,
                     task_ids[stream], model))
        global_task += 1
        return global_task - 1

    def kernel_info(global_task_id, name, op_type, shapes):
        compute.append((s(name), global_task_id, 24, 0, s("AI_CORE"), s(op_type), s("ND;ND"),
                        s("FLOAT16;FLOAT16"), s(shapes), s("ND"), s("FLOAT16"), s(shapes.split(";")[0] + '"'),
                        s("N/A")))

    for k in range(steps):
        base = ts0 + TILING_BASE_NS + k * TILING_STEP_NS
        tables["STEP_TIME"][1].append((TILING_FIRST_STEP + k, base, base + TILING_STEP_NS))
        for j, (op_type, name, tiling_ns, shapes) in enumerate(TILED_OPS):
            at = base + 10_000 + j * 300_000
            shapes = shapes.format(seq=128 * (k + 1) if modes[j] == "host_dynamic" else 128)
            if modes[j] == "sunk":
                device_task(at, at + 20_000, "KERNEL_AICPU", TILING_STREAM)
                device_task(at + 1_000, at + 23_000, "EVENT_WAIT", MAIN_STREAM)
                device_task(at + 20_500, at + 21_500, "MODEL_TASK_UPDATE", TILING_STREAM)
                device_task(at + 22_000, at + 22_500, "EVENT_RECORD", TILING_STREAM)
                for n in range(TILING_NOPS):
                    device_task(at + 23_100 + 200 * n, at + 23_200 + 200 * n, "NOP", MAIN_STREAM)
                kernel_info(device_task(at + 25_000, at + 125_000, "KERNEL_AICORE", MAIN_STREAM), name, op_type, shapes)
                continue
            cann.append((at, at + tiling_ns + 40_000, 20000, TILING_THREAD, connection, s(f"aclnn{op_type}")))
            cann.append((at + 5_000, at + 5_000 + tiling_ns, 20000, TILING_THREAD, connection + 1,
                         s(f"{op_type}_Tiling")))
            cann.append((at + 10_000 + tiling_ns, at + 20_000 + tiling_ns, 10000, TILING_THREAD, connection + 2,
                         s("launch")))
            launched = device_task(at + 30_000 + tiling_ns, at + 130_000 + tiling_ns, "KERNEL_AICORE", MAIN_STREAM,
                                   connection + 2, NO_MODEL)
            kernel_info(launched, name, op_type, shapes)
            connection += 3
    session = tables["SESSION_TIME_INFO"]
    session[1][0] = (session[1][0][0], ts0 + TILING_BASE_NS + steps * TILING_STEP_NS)
    tables["STRING_IDS"] = (tables["STRING_IDS"][0], sorted((i, v) for v, i in strings.ids.items()))


def _strings_of(tables: dict) -> _Strings:
    """The db's STRING_IDS as a :class:`_Strings` that goes on numbering after them."""
    strings = _Strings()
    for string_id, value in tables["STRING_IDS"][1]:
        strings.ids[value] = string_id
        framework = string_id >= FRAMEWORK_STRING_BASE
        strings.next[framework] = max(strings.next[framework], string_id + 1)
    return strings


def add_mstx(tables: dict, ts0: int, events) -> None:
    """Add MSTX_EVENTS rows, one per ``(message, kind, start, end)`` (times from ``ts0``; kind a
    name of MSTX_EVENT_TYPES), marked in the default domain on build_tables' main thread, or on
    thread ``tid`` of its process when a fifth item gives it, and without a device task, or with
    connection id ``connection`` when a sixth item gives it: the framework then records the event
    too, as torch_npu does (a PYTORCH_API row of type mstx with a CONNECTION_IDS row leading to
    the connection); STRING_IDS is extended with the messages."""
    strings = _strings_of(tables)
    rows = tables["MSTX_EVENTS"][1]
    framework, connections = tables["PYTORCH_API"][1], tables["CONNECTION_IDS"][1]
    for message, kind, start, end, *more in events:
        thread = global_tid(100, more[0] if more else 101)
        connection = more[1] if len(more) > 1 else NO_CONNECTION
        rows.append((ts0 + start, ts0 + end, MSTX_EVENT_TYPES[kind], len(rows) + 1, 0, strings(message), thread, thread,
                     strings("default"), connection))
        if connection != NO_CONNECTION:
            connections.append((len(connections), connection))
            framework.append((str(ts0 + start), str(ts0 + end), thread, connections[-1][0],
                              strings(message, framework=True), None, None, None, None, None, 50004))
    tables["STRING_IDS"] = (tables["STRING_IDS"][0], sorted((i, v) for v, i in strings.ids.items()))


def add_overlap(tables: dict, ts0: int, device_id: int, intervals) -> None:
    """Add OVERLAP_ANALYSIS rows, one per ``(type, start, end)`` (times from ``ts0``; type a name of
    OVERLAP_TYPES) on ``device_id``."""
    rows = tables["OVERLAP_ANALYSIS"][1]
    for kind, start, end in intervals:
        rows.append((len(rows) + 1, device_id, ts0 + start, ts0 + end, OVERLAP_TYPES[kind]))


def add_memcpy(tables: dict, ts0: int, device_id: int, copies) -> None:
    """Add a MEMCPY_ASYNC device task and its MEMCPY_INFO row per ``(start, end, stream, size, direction)``
    (times from ``ts0``; direction a name of MEMCPY_OPERATIONS, or a number the enum does not name), with
    ENUM_MEMCPY_OPERATION; nothing when there is no copy (the file then has neither table)."""
    if not copies:
        return
    strings = _strings_of(tables)
    names = {name: number for number, name in MEMCPY_OPERATIONS.items()}
    info = []
    for index, (start, end, stream, size, direction) in enumerate(copies):
        task_id = MEMCPY_TASK + index
        tables["TASK"][1].append((ts0 + start, ts0 + end, device_id, NO_CONNECTION, task_id, 3136493,
                                  strings("MEMCPY_ASYNC"), NO_CONNECTION, stream, 5000 + index, NO_CONNECTION))
        info.append((task_id, size, names.get(direction, direction)))
    tables["MEMCPY_INFO"] = (MEMCPY_INFO_DDL, info)
    tables["ENUM_MEMCPY_OPERATION"] = ("id INTEGER PRIMARY KEY, name TEXT", sorted(MEMCPY_OPERATIONS.items()))
    tables["STRING_IDS"] = (tables["STRING_IDS"][0], sorted((i, v) for v, i in strings.ids.items()))


def write_db(path: Path, tables: dict[str, tuple[str, list[tuple]]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path)
    with conn:
        for name, (ddl, rows) in tables.items():
            conn.execute(f'CREATE TABLE "{name}" ({ddl})')
            if rows:
                marks = ", ".join("?" * len(rows[0]))
                conn.executemany(f'INSERT INTO "{name}" VALUES ({marks})', rows)
    conn.close()


class RankDbFactory(factory.Factory):
    """Writes a rank db at ``path`` and returns its :class:`RankDb`."""

    class Meta:
        model = RankDb

    path = factory.LazyAttribute(lambda o: Path(f"ascend_pytorch_profiler_{o.rank_id}.db"))
    rank_id = 0
    device_id = factory.LazyAttribute(lambda o: o.rank_id % 8)
    ts0 = factory.LazyAttribute(lambda o: 1_736_410_576_000_000_000 + o.rank_id * 1_000_000)
    #: False writes rankId -1 (unset) into RANK_DEVICE_MAP
    rank_in_map = True
    #: optional tables left out
    omit = ("ACC_PMU",)
    #: add a table no reader knows
    extra_table = True
    #: COMPUTE_TASK_INFO generation: "blockDim" (2025) or "blockNum" (current CANN)
    block_columns = "blockDim"
    #: None, or the tiling of TILED_OPS in extra steps (add_tiling): "host", "host_dynamic", "sunk", or one per operator
    tiling = None
    tiling_steps = 3
    #: True writes HOST_INFO as torch_npu did before 6.0.rc3 (October 2024): hostUid INTEGER
    torch_npu_2024 = False
    #: MSTX_EVENTS rows (add_mstx): (message, kind, start, end[, tid[, connection]]) with times from ts0
    mstx = ()
    #: OVERLAP_ANALYSIS rows (add_overlap): (type, start, end) with times from ts0
    overlap = ()
    #: memory copy tasks (add_memcpy): (start, end, stream, size, direction) with times from ts0
    memcpy = ()

    @classmethod
    def _create(cls, model_class, *, path, rank_id, device_id, ts0, rank_in_map, omit, extra_table,
                block_columns, tiling, tiling_steps, torch_npu_2024, mstx, overlap, memcpy):
        tables = build_tables(rank_id, device_id, ts0, rank_in_map, block_columns)
        add_mstx(tables, ts0, mstx)
        add_overlap(tables, ts0, device_id, overlap)
        add_memcpy(tables, ts0, device_id, memcpy)
        if torch_npu_2024:
            tables["HOST_INFO"] = ("hostUid INTEGER, hostName TEXT", [(6458368880732993735, f"node{rank_id // 8}")])
        if tiling:
            add_tiling(tables, ts0, device_id, tiling, tiling_steps)
        for name in omit:
            tables.pop(name)
        if extra_table:
            tables["VENDOR_EXTRA_METRICS"] = ("metric TEXT, value REAL", [("x", 1.0)])
        write_db(Path(path), tables)
        return model_class(Path(path), rank_id, device_id, ts0, tables)
