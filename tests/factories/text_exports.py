"""factory-boy factories that write the torch_npu / msprof text exports byte for byte.

CSV files are written as the real ones are (reference/REAL_FILES.md): CRLF line ends,
timestamps followed by a TAB, shapes in three double quotes, ``N/A`` for a missing value
(``None``), fields with commas or newlines quoted. A CSV factory takes ``path``, ``header``
and ``rows`` (dicts keyed by header name; a missing key is written ``N/A``) and returns a
:class:`CsvFile`; row dict factories give realistic defaults the tests override.
JSON factories take ``path`` and the document's parts and return a :class:`JsonFile`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import factory

from factories.trace_json import TraceFileFactory, moe_events
from warehouse.synth.kernel_details import KERNEL_HEADER_46

KERNEL_HEADER_8 = (
    "Step Id", "Name", "Type", "Accelerator Core", "Start Time(us)", "Duration(us)", "Wait Time(us)", "Block Dim",
)
KERNEL_HEADER_32 = (
    "Step Id", "Model ID", "Task ID", "Stream ID", "Name", "Type", "Accelerator Core", "Start Time(us)",
    "Duration(us)", "Wait Time(us)", "Block Dim", "Mix Block Dim", "HF32 Eligible", "Input Shapes",
    "Input Data Types", "Input Formats", "Output Shapes", "Output Data Types", "Output Formats", "Context ID",
    "aicore_time(us)", "aic_total_cycles", "aic_l0a_read_bw(GB/s)", "aic_l0a_write_bw(GB/s)",
    "aic_l0b_read_bw(GB/s)", "aic_l0b_write_bw(GB/s)", "aic_l0c_read_bw_cube(GB/s)",
    "aic_l0c_write_bw_cube(GB/s)", "aiv_time(us)", "aiv_total_cycles", "aiv_l0c_read_bw(GB/s)",
    "aiv_l0c_write_bw(GB/s)",
)
OP_SUMMARY_HEADER = (
    "Step Id", "Model ID", "Task ID", "Stream ID", "Op Name", "OP Type", "Task Type", "Start Time(us)",
    "Task Duration(us)", "Task Wait Time(us)", "Block Dim", "Mix Block Dim", "HF32 Eligible", "Input Shapes",
    "Input Data Types", "Input Formats", "Output Shapes", "Output Data Types", "Output Formats", "Context ID",
    "aicore_time(us)", "aic_total_cycles", "aiv_time(us)", "aiv_total_cycles",
)
OP_STATISTIC_HEADER = ("OP Type", "Core Type", "Count", "Total Time(us)", "Min Time(us)", "Avg Time(us)",
                       "Max Time(us)", "Ratio(%)")
OPERATOR_DETAILS_HEADER = (
    "Name", "Input Shapes", "Call Stack", "Host Self Duration(us)", "Host Total Duration(us)",
    "Device Self Duration(us)", "Device Total Duration(us)", "Device Self Duration With AICore(us)",
    "Device Total Duration With AICore(us)",
)
STEP_TRACE_HEADER = (
    "Step", "Computing", "Communication(Not Overlapped)", "Overlapped", "Communication", "Free", "Stage", "Bubble",
    "Communication(Not Overlapped and Exclude Receive)", "Preparing",
)
CLUSTER_STEP_TRACE_HEADER = ("Step", "Type", "Index", *STEP_TRACE_HEADER[1:-1])
MEMORY_RECORD_HEADER = ("Component", "Timestamp(us)", "Total Allocated(MB)", "Total Reserved(MB)",
                        "Total Active(MB)", "Stream Ptr", "Device Type")
OPERATOR_MEMORY_HEADER = (
    "Name", "Size(KB)", "Allocation Time(us)", "Release Time(us)", "Active Release Time(us)", "Duration(us)",
    "Active Duration(us)", "Allocation Total Allocated(MB)", "Allocation Total Reserved(MB)",
    "Allocation Total Active(MB)", "Release Total Allocated(MB)", "Release Total Reserved(MB)",
    "Release Total Active(MB)", "Stream Ptr", "Device Type",
)
API_STATISTIC_HEADER = ("Level", "API Name", "Time(us)", "Count", "Avg(us)", "Min(us)", "Max(us)", "Variance")
NPU_MODULE_MEM_HEADER = ("Component", "Timestamp(us)", "Total Reserved(MB)", "Device")
L2_CACHE_HEADER = ("Stream Id", "Task Id", "Hit Rate", "Victim Rate", "Op Name")
STATIC_OP_MEM_HEADER = ("Device_id", "Op Name", "Model Name", "Graph ID", "Node Index Start", "Node Index End",
                        "Size(KB)")

#: Columns the real exports end with a TAB.
TAB_AFTER = frozenset({"Start Time(us)", "Timestamp(us)", "Allocation Time(us)"})
#: Columns the real exports write in three double quotes.
TRIPLE_QUOTED = frozenset({"Input Shapes", "Output Shapes"})


@dataclass
class CsvFile:
    """A written CSV export: where, its header and rows as given, its bytes."""

    path: Path
    header: tuple[str, ...]
    rows: list[dict]
    data: bytes


@dataclass
class JsonFile:
    """A written JSON export: where and its document."""

    path: Path
    document: object


def cell(header: str, value) -> str:
    """One CSV field as the exports write it."""
    if value is None:
        return "N/A"
    value = str(value)
    if header in TRIPLE_QUOTED and value:
        return f'"""{value}"""'
    if header in TAB_AFTER and value:
        value += "\t"
    if any(mark in value for mark in ',"\n'):
        return '"' + value.replace('"', '""') + '"'
    return value


def csv_bytes(header, rows) -> bytes:
    lines = [",".join(header)]
    lines += [",".join(cell(name, row.get(name)) for name in header) for row in rows]
    return ("\r\n".join(lines) + "\r\n").encode("utf-8")


class CsvExportFactory(factory.Factory):
    """Writes ``rows`` under ``header`` to ``path``."""

    class Meta:
        model = CsvFile

    path = None
    header = ()
    rows = factory.LazyFunction(list)
    data = factory.LazyAttribute(lambda o: csv_bytes(o.header, o.rows))

    @classmethod
    def _create(cls, model_class, path, header, rows, data):
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        return model_class(path, tuple(header), rows, data)


class KernelRowFactory(factory.DictFactory):
    """One kernel_details.csv record (46-column names; the 8- and 32-column files use a subset)."""

    step_id = "50"
    model_id = "4294967295"
    task_id = factory.Sequence(lambda n: str(11051 + n))
    stream_id = "2"
    name = factory.Sequence(lambda n: f"aclnnMm_MatMulCommon_MatMulV2_{n}")
    type = "MatMulV2"
    op_state = "dynamic"
    core = "AI_CORE"
    # one ns apart, in us with three decimals whatever the sequence number
    start = factory.Sequence(lambda n: "{}.{:03d}".format(*divmod(1736408883704643212 + n, 1000)))
    duration = "53.741"
    wait = "0"
    block_dim = "24"
    mix_block_dim = "0"
    hf32 = "NO"
    input_shapes = "32,2048;2048,1000"
    input_dtypes = "FLOAT16;FLOAT16"
    input_formats = "ND;ND"
    output_shapes = "32,1000"
    output_dtypes = "FLOAT16"
    output_formats = "ND"
    context_id = None
    aicore = "50.522"
    aic_cycles = "2910056"
    aic_mac = "9.406"
    aic_mac_ratio = "0.186"
    aic_scalar = "4.32"
    aic_scalar_ratio = "0.086"
    aic_mte1 = "1.5"
    aic_mte1_ratio = "0.03"
    aic_mte2 = "27.875"
    aic_mte2_ratio = "0.552"
    aic_fixpipe = "2.25"
    aic_fixpipe_ratio = "0.045"
    aic_icache = "0.023"
    aiv = "0.0"
    aiv_cycles = "0"
    aiv_vec = "0.0"
    aiv_vec_ratio = "0.0"
    aiv_scalar = "0.0"
    aiv_scalar_ratio = "0.0"
    aiv_mte2 = "0.0"
    aiv_mte2_ratio = "0.0"
    aiv_mte3 = "0.0"
    aiv_mte3_ratio = "0.0"
    aiv_icache = "0.0"
    cube_utilization = "61.5"

    class Meta:
        rename = {
            "step_id": "Step Id", "model_id": "Model ID", "task_id": "Task ID", "stream_id": "Stream ID",
            "name": "Name", "type": "Type", "op_state": "OP State", "core": "Accelerator Core",
            "start": "Start Time(us)", "duration": "Duration(us)", "wait": "Wait Time(us)",
            "block_dim": "Block Dim", "mix_block_dim": "Mix Block Dim", "hf32": "HF32 Eligible",
            "input_shapes": "Input Shapes", "input_dtypes": "Input Data Types", "input_formats": "Input Formats",
            "output_shapes": "Output Shapes", "output_dtypes": "Output Data Types",
            "output_formats": "Output Formats", "context_id": "Context ID", "aicore": "aicore_time(us)",
            "aic_cycles": "aic_total_cycles", "aic_mac": "aic_mac_time(us)", "aic_mac_ratio": "aic_mac_ratio",
            "aic_scalar": "aic_scalar_time(us)", "aic_scalar_ratio": "aic_scalar_ratio",
            "aic_mte1": "aic_mte1_time(us)", "aic_mte1_ratio": "aic_mte1_ratio", "aic_mte2": "aic_mte2_time(us)",
            "aic_mte2_ratio": "aic_mte2_ratio", "aic_fixpipe": "aic_fixpipe_time(us)",
            "aic_fixpipe_ratio": "aic_fixpipe_ratio", "aic_icache": "aic_icache_miss_rate", "aiv": "aiv_time(us)",
            "aiv_cycles": "aiv_total_cycles", "aiv_vec": "aiv_vec_time(us)", "aiv_vec_ratio": "aiv_vec_ratio",
            "aiv_scalar": "aiv_scalar_time(us)", "aiv_scalar_ratio": "aiv_scalar_ratio",
            "aiv_mte2": "aiv_mte2_time(us)", "aiv_mte2_ratio": "aiv_mte2_ratio", "aiv_mte3": "aiv_mte3_time(us)",
            "aiv_mte3_ratio": "aiv_mte3_ratio", "aiv_icache": "aiv_icache_miss_rate",
            "cube_utilization": "cube_utilization(%)",
        }


class HcclKernelRowFactory(KernelRowFactory):
    """An HCCL operator's kernel_details.csv record as torch_npu writes it: no task, stream, state nor metrics."""

    task_id = None
    stream_id = None
    name = factory.Sequence(lambda n: f"hcom_allReduce__586_{n}_1")
    type = "hcom_allReduce_"
    op_state = None
    core = "HCCL"
    duration = "79089.52"
    wait = "590.331"
    block_dim = "0"
    mix_block_dim = hf32 = input_shapes = input_dtypes = input_formats = None
    output_shapes = output_dtypes = output_formats = None
    aicore = aic_cycles = aic_mac = aic_mac_ratio = aic_scalar = aic_scalar_ratio = aic_mte1 = aic_mte1_ratio = None
    aic_mte2 = aic_mte2_ratio = aic_fixpipe = aic_fixpipe_ratio = aic_icache = None
    aiv = aiv_cycles = aiv_vec = aiv_vec_ratio = aiv_scalar = aiv_scalar_ratio = aiv_mte2 = aiv_mte2_ratio = None
    aiv_mte3 = aiv_mte3_ratio = aiv_icache = cube_utilization = None


class KernelDetailsFactory(CsvExportFactory):
    """kernel_details.csv, 46 columns (aic_metrics PipeUtilization)."""

    header = KERNEL_HEADER_46
    rows = factory.LazyFunction(lambda: [KernelRowFactory(), KernelRowFactory()])


class OpSummaryFactory(CsvExportFactory):
    """op_summary_*.csv (msprof), its kernel fields under their msprof names."""

    header = OP_SUMMARY_HEADER
    rows = factory.LazyFunction(lambda: [{
        "Step Id": "2", "Model ID": "4294967295", "Task ID": "2451", "Stream ID": "16", "Op Name": "ZerosLike",
        "OP Type": "ZerosLike", "Task Type": "AI_CORE", "Start Time(us)": "1695115378713661",
        "Task Duration(us)": "496.8508", "Task Wait Time(us)": "0", "Block Dim": "48", "Mix Block Dim": "0",
        "HF32 Eligible": "NO", "Input Shapes": "232138240", "Input Data Types": "FLOAT", "Input Formats": "FORMAT_ND",
        "Output Shapes": "232138240", "Output Data Types": "FLOAT", "Output Formats": "FORMAT_ND",
        "Context ID": None, "aicore_time(us)": "982.72", "aic_total_cycles": "0", "aiv_time(us)": "491.36",
        "aiv_total_cycles": "43632970",
    }])


class OpStatisticFactory(CsvExportFactory):
    header = OP_STATISTIC_HEADER
    rows = factory.LazyFunction(lambda: [
        {"OP Type": "ForeachAddList", "Core Type": "AI_VECTOR_CORE", "Count": "3", "Total Time(us)": "1959.079",
         "Min Time(us)": "624.152", "Avg Time(us)": "653.026", "Max Time(us)": "706.614", "Ratio(%)": "22.077"},
        {"OP Type": "TransData", "Core Type": "AI_VECTOR_CORE", "Count": "57", "Total Time(us)": "1423.208",
         "Min Time(us)": "6.54", "Avg Time(us)": "24.969", "Max Time(us)": "70.801", "Ratio(%)": "16.038"},
    ])


class OperatorDetailsFactory(CsvExportFactory):
    header = OPERATOR_DETAILS_HEADER
    rows = factory.LazyFunction(lambda: [
        {"Name": "aten::add", "Input Shapes": "", "Call Stack": "/a/b.py(345): train;\n/a/c.py(12): step",
         "Host Self Duration(us)": "12.5", "Host Total Duration(us)": "20.25", "Device Self Duration(us)": "3.001",
         "Device Total Duration(us)": "3.001", "Device Self Duration With AICore(us)": "0",
         "Device Total Duration With AICore(us)": "0.5"},
        {"Name": "aten::mm", "Input Shapes": "[[32, 2048], [2048, 1000]]", "Call Stack": "",
         "Host Self Duration(us)": "8", "Host Total Duration(us)": "9", "Device Self Duration(us)": "1",
         "Device Total Duration(us)": "1", "Device Self Duration With AICore(us)": "1",
         "Device Total Duration With AICore(us)": "1"},
    ])


class StepTraceTimeFactory(CsvExportFactory):
    header = STEP_TRACE_HEADER
    rows = factory.LazyFunction(lambda: [{
        "Step": "50", "Computing": "8873.756000000001", "Communication(Not Overlapped)": "101963.203",
        "Overlapped": "4028.6750000000175", "Communication": "105991.87800000001", "Free": "25744.050000000003",
        "Stage": "136581.0", "Bubble": "0", "Communication(Not Overlapped and Exclude Receive)": "101963.203",
        "Preparing": "17902.5",
    }])


class ClusterStepTraceTimeFactory(CsvExportFactory):
    header = CLUSTER_STEP_TRACE_HEADER
    rows = factory.LazyFunction(lambda: [
        {"Step": "2", "Type": "rank", "Index": "3", "Computing": "75174.5", "Communication(Not Overlapped)": "1",
         "Overlapped": "2", "Communication": "3", "Free": "4", "Stage": "5", "Bubble": "0.0",
         "Communication(Not Overlapped and Exclude Receive)": "1"},
        {"Step": "2", "Type": "stage", "Index": "(0, 1, 2, 3)", "Computing": "76310.94",
         "Communication(Not Overlapped)": "1", "Overlapped": "2", "Communication": "3", "Free": "4",
         "Stage": "304017.5", "Bubble": "0", "Communication(Not Overlapped and Exclude Receive)": "1"},
    ])


class MemoryRecordFactory(CsvExportFactory):
    header = MEMORY_RECORD_HEADER
    rows = factory.LazyFunction(lambda: [
        {"Component": "APP", "Timestamp(us)": "1736408883573957.920", "Total Allocated(MB)": "",
         "Total Reserved(MB)": "2109.6015625", "Total Active(MB)": "", "Stream Ptr": "", "Device Type": "NPU:0"},
        {"Component": "PTA", "Timestamp(us)": "1736408883694624.810", "Total Allocated(MB)": "954.3701171875",
         "Total Reserved(MB)": "1452.0", "Total Active(MB)": "954.3701171875", "Stream Ptr": "897357296",
         "Device Type": "NPU:3"},
    ])


class OperatorMemoryFactory(CsvExportFactory):
    header = OPERATOR_MEMORY_HEADER
    rows = factory.LazyFunction(lambda: [
        {"Name": "aten::empty_strided", "Size(KB)": "18816.5", "Allocation Time(us)": "1736408883694624.810",
         "Release Time(us)": "1736408883701264.010", "Active Release Time(us)": "1736408883701264.010",
         "Duration(us)": "6639.2", "Active Duration(us)": "6639.2", "Allocation Total Allocated(MB)": "954.3701171875",
         "Allocation Total Reserved(MB)": "1452.0", "Allocation Total Active(MB)": "954.3701171875",
         "Release Total Allocated(MB)": "935.9951171875", "Release Total Reserved(MB)": "1452.0",
         "Release Total Active(MB)": "935.9951171875", "Stream Ptr": "897357296", "Device Type": "NPU:0"},
        {"Name": "aten::empty", "Size(KB)": "0.5", "Allocation Time(us)": "1736408883701264.010",
         "Release Time(us)": "", "Active Release Time(us)": "", "Duration(us)": "", "Active Duration(us)": "",
         "Allocation Total Allocated(MB)": "954.37060546875", "Allocation Total Reserved(MB)": "1452.0",
         "Allocation Total Active(MB)": "954.37060546875", "Release Total Allocated(MB)": "",
         "Release Total Reserved(MB)": "", "Release Total Active(MB)": "", "Stream Ptr": "897357296",
         "Device Type": "NPU:0"},
    ])


class ApiStatisticFactory(CsvExportFactory):
    header = API_STATISTIC_HEADER
    rows = factory.LazyFunction(lambda: [
        {"Level": "hccl", "API Name": "Launch_Ffts", "Time(us)": "474.41", "Count": "4", "Avg(us)": "118.603",
         "Min(us)": "89.18", "Max(us)": "138.75", "Variance": "389.155"},
        {"Level": "acl", "API Name": "MaxPoolGradWithArgmaxV1_Tiling", "Time(us)": "30.83", "Count": "3",
         "Avg(us)": "10.277", "Min(us)": "7.67", "Max(us)": "14.54", "Variance": "9.238"},
    ])


class NpuModuleMemFactory(CsvExportFactory):
    header = NPU_MODULE_MEM_HEADER
    rows = factory.LazyFunction(lambda: [
        {"Component": "SLOG", "Timestamp(us)": "1736408883657086.220", "Total Reserved(MB)": "0.0", "Device": "NPU:0"},
        {"Component": "APP", "Timestamp(us)": "1736408883677036.730", "Total Reserved(MB)": "2109.6015625",
         "Device": "NPU:0"},
    ])


class L2CacheFactory(CsvExportFactory):
    header = L2_CACHE_HEADER
    rows = factory.LazyFunction(lambda: [
        {"Stream Id": "2", "Task Id": "11052", "Hit Rate": None, "Victim Rate": "0.23264",
         "Op Name": "trans_TransData_1"},
        {"Stream Id": "2", "Task Id": "11053", "Hit Rate": "0.875", "Victim Rate": "0.066913", "Op Name": "Conv2D1"},
    ])


class StaticOpMemFactory(CsvExportFactory):
    header = STATIC_OP_MEM_HEADER
    rows = factory.LazyFunction(lambda: [
        {"Device_id": "host", "Op Name": "sqrt_01", "Model Name": "0", "Graph ID": "0", "Node Index Start": "31",
         "Node Index End": "32", "Size(KB)": "2343.78125"},
        {"Device_id": "NPU:1", "Op Name": "trans_TransData_0", "Model Name": "0", "Graph ID": "7",
         "Node Index Start": "1", "Node Index End": "6", "Size(KB)": "1250.03125"},
    ])


# --- JSON exports ----------------------------------------------------------------------------


class JsonExportFactory(factory.Factory):
    """Writes ``document`` as JSON to ``path``."""

    class Meta:
        model = JsonFile

    path = None
    document = factory.LazyFunction(dict)

    @classmethod
    def _create(cls, model_class, path, document):
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(document), encoding="utf-8")
        return model_class(path, document)


class TransportStatsFactory(factory.DictFactory):
    """One transport type's figures of a communication.json entry."""

    transit_size = 28.647232
    transit_time = 1.81683634375
    bandwidth = 15.7676
    large_packet_ratio = 0.0
    size_distribution = factory.LazyFunction(lambda: {"2.064384": [12, 1.578891625]})

    class Meta:
        rename = {"transit_size": "Transit Size(MB)", "transit_time": "Transit Time(ms)",
                  "bandwidth": "Bandwidth(GB/s)", "large_packet_ratio": "Large Packet Ratio",
                  "size_distribution": "Size Distribution"}


class CommunicationEntryFactory(factory.DictFactory):
    """One operator of communication.json: time info and bandwidth per transport type."""

    time_info = factory.LazyFunction(lambda: {
        "Start Timestamp(us)": 1736408883732241.5, "Elapse Time(ms)": 79.08952021875,
        "Transit Time(ms)": 0.23918478124999998, "Wait Time(ms)": 5.64663284375,
        "Synchronization Time(ms)": 5.61569221875, "Idle Time(ms)": 73.20370259375,
        "Wait Time Ratio": 0.9594, "Synchronization Time Ratio": 0.9591,
    })
    bandwidth_info = factory.LazyFunction(lambda: {
        "HCCS": TransportStatsFactory(),
        "RDMA": TransportStatsFactory(transit_size=0, transit_time=0, bandwidth=0, large_packet_ratio=0,
                                      size_distribution={}),
    })

    class Meta:
        rename = {"time_info": "Communication Time Info", "bandwidth_info": "Communication Bandwidth Info"}


class CommunicationJsonFactory(JsonExportFactory):
    """communication.json: ``{step: {"p2p": {...}, "collective": {"<op>@<group>": entry}}}``."""

    document = factory.LazyFunction(lambda: {"step50": {
        "p2p": {},
        "collective": {
            "hcom_allReduce__586_0_1@17522688603477080586": CommunicationEntryFactory(),
            "hcom_allReduce__586_1_1@17522688603477080586": CommunicationEntryFactory(),
        },
    }})


def link(transport: str, size: float, time: float, bandwidth: float, op_name: str | None = None) -> dict:
    """One rank pair of a communication matrix."""
    stats = {"Transport Type": transport, "Transit Size(MB)": size, "Transit Time(ms)": time,
             "Bandwidth(GB/s)": bandwidth}
    if op_name:
        stats["Op Name"] = op_name
    return stats


class CommunicationMatrixFactory(JsonExportFactory):
    """communication_matrix.json: ``{step: {type: {"<op>@<group>": {"<src>-<dst>": stats}}}}``."""

    document = factory.LazyFunction(lambda: {"step50": {"p2p": {}, "collective": {
        "allreduce-top1@17522688603477080586": {
            "0-0": link("LOCAL", 4.128776, 0.00822015625, 502.2746, "hcom_allReduce__586_0_1"),
            "0-1": link("HCCS", 37.781504, 2.153383, 17.5452, "hcom_allReduce__586_2_1"),
        },
    }}})


class ClusterCommunicationFactory(JsonExportFactory):
    """cluster_communication.json: ``{type: {step: {"<op>@<group>": {rank: entry}}}}``."""

    document = factory.LazyFunction(lambda: {
        "p2p": {"step2": {"hcom_send__822_0@13337953553061386822": {
            "0": CommunicationEntryFactory(), "8": CommunicationEntryFactory(),
        }}},
        "collective": {"step2": {}},
    })


class ClusterCommunicationMatrixFactory(JsonExportFactory):
    """cluster_communication_matrix.json: ``{type: {step: {"<op>@<group>": {"<src>-<dst>": stats}}}}``."""

    document = factory.LazyFunction(lambda: {"p2p": {"step2": {
        "hcom_send__822_0@13337953553061386822": {
            "0-0": link("LOCAL", 20.97152, 0.0275528359375, 761.1383),
            "0-8": link("RDMA", 20.97152, 0.86381540625, 24.2778),
        },
        "Total Op Info": {"0-8": link("RDMA", 20.97152, 0.86381540625, 24.2778)},
    }}})


class ProfilerInfoFactory(JsonExportFactory):
    """profiler_info_{rank}.json."""

    document = factory.LazyFunction(lambda: {
        "config": {
            "common_config": {"activities": ["ProfilerActivity.CPU", "ProfilerActivity.NPU"], "record_shapes": True},
            "experimental_config": {"_profiler_level": "Level1", "_aic_metrics": "ACL_AICORE_PIPE_UTILIZATION",
                                    "_export_type": "text"},
        },
        "start_info": {"syscnt_enable": True, "freq": 100, "start_cnt": 17238197612056},
        "end_info": {"collectionTimeEnd": 1736408884023552840, "MonotonicTimeEnd": 172164265133640},
        "rank_id": 3,
    })


class ProfilerMetadataFactory(JsonExportFactory):
    """profiler_metadata.json."""

    document = factory.LazyFunction(lambda: {
        "ENV_VARIABLES": {"ASCEND_GLOBAL_LOG_LEVEL": "", "HCCL_RDMA_TC": "4"},
        "distributed_args": {"tensor_model_parallel_size": 2, "rank": 0, "world_size": 8},
    })


class CommunicationGroupFactory(JsonExportFactory):
    """communication_group.json (newer files carry comm_group_parallel_info)."""

    document = factory.LazyFunction(lambda: {
        "collective": [[0, 1], [0, 1, 2, 3]],
        "p2p": [[0, 1, 2, 3]],
        "comm_group_parallel_info": [{
            "type": "collective", "rank_set": [0, 1], "group_name": "6960437680420871035",
            "group_id": "10.174.216.241%enp189s0f1_55000_0_1738895506630464", "pg_name": "tp",
        }],
    })


def write_moe_rank(folder: Path, rank: int, kernels_us: list[float]) -> None:
    """A text export's rank of an MoE inference service under ``folder``: its profiler_info_{rank}.json and a
    trace_view.json of two model passes (:func:`factories.trace_json.moe_events`)."""
    ProfilerInfoFactory(path=folder / f"profiler_info_{rank}.json",
                        document=ProfilerInfoFactory.build(path=None).document | {"rank_id": rank})
    TraceFileFactory(path=folder / "ASCEND_PROFILER_OUTPUT/trace_view.json", events=moe_events(kernels_us))
