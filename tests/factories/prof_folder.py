"""factory-boy factory that writes a CANN msprof ``PROF_*`` folder's device timeline byte for byte.

``ProfTimelineFactory(root=tmp_path, iterations=2)`` writes, on top of
:class:`~tests.factories.cluster_outputs.ProfFolderFactory`'s ``info.json`` files (rank 0,
device 0), ``device_0/start_info.0`` (compact JSON, its numbers as strings) and
``device_0/timeline/`` as msprof writes them (one line, ``json.dumps``' separators, times in us of
the device's monotonic clock as floats):

- ``msprof_0_2_{i}.json`` per iteration i: the "Ascend Hardware" streams (one AI_CORE task on
  stream 2, one AI_CPU task on stream 4, and HCCL's NOTIFY_WAIT on stream 12), the step trace's
  "Iteration i", and the "HCCL" process (the AllReduce operator on its track 70000, two tasks on
  plane 0, the first one on stream 12);
- ``task_time_0_2_{i}.json`` and ``hccl_0_2_{i}.json``: its Ascend Hardware and HCCL events again;
- ``step_trace_0_2_1.json``: every iteration.

Iteration i starts at :data:`ITERATION_US` * i us and lasts :data:`ITERATION_DUR_US`; the
module's constants give every time a test expects.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

import factory

from tests.factories.cluster_outputs import ProfFolderFactory
from tests.factories.rank_db import write_db

#: the start_info: the epoch us and monotonic ns of the same instant
COLLECTION_TIME_BEGIN_US = 1_692_340_024_324_979
CLOCK_MONOTONIC_RAW_NS = 56_579_931_060_630
#: ns to add to a timeline time (us * 1000) to get ns since the epoch
EPOCH_OFFSET_NS = COLLECTION_TIME_BEGIN_US * 1000 - CLOCK_MONOTONIC_RAW_NS
ITERATION_US = 56_635_000_000.0
ITERATION_DUR_US = 15_369.16
HARDWARE, HCCL = 3, 1_003_611
#: HCCL's stream: its tasks on the Ascend Hardware streams are HCCL's, not kernels
HCCL_STREAM = 12


@dataclass
class ProfTimeline:
    """A written PROF folder: its path, its device folder and its timeline folder."""

    prof: Path
    device: Path
    timeline: Path


def meta(pid: int, tid: int, kind: str, value) -> dict:
    """An M event as msprof writes it (``process_name``, ``thread_name``, ``thread_sort_index``)."""
    key = "sort_index" if kind.endswith("sort_index") else "name"
    return {"name": kind, "pid": pid, "tid": tid, "args": {key: value}, "ph": "M"}


def task(name: str, stream: int, task_id: int, task_type: str, ts: float, dur: float) -> dict:
    """A device task on an Ascend Hardware stream."""
    return {"name": name, "pid": HARDWARE, "tid": stream, "ts": ts, "dur": dur,
            "args": {"Task Type": task_type, "Stream Id": stream, "Task Id": task_id, "Batch Id": 0,
                     "Aicore Time(ms)": 21, "Total Cycle": 672029}, "ph": "X"}


def hccl_task(name: str, stream: int, task_id: int, ts: float, dur: float) -> dict:
    """An HCCL task on plane 0."""
    return {"name": name, "pid": HCCL, "tid": 0, "ts": ts, "dur": dur,
            "args": {"notify_id": 160, "duration estimated(us)": 0.02, "stream id": stream, "task id": task_id,
                     "task type": name, "src rank": 0, "dst rank": 4294967295, "transport type": "LOCAL",
                     "size(Byte)": 0, "data type": "INVALID_TYPE", "link type": "INVALID_TYPE",
                     "bandwidth(GB/s)": 0.0}, "ph": "X"}


def iteration(i: int) -> dict:
    """The step trace's "Iteration i" event."""
    start = ITERATION_US * i
    return {"name": f"Iteration {i}", "pid": HARDWARE, "tid": 10036, "ts": start, "dur": ITERATION_DUR_US,
            "args": {"Iteration ID": i, "FP Start": start + 5.0, "BP End": start + 4000.0,
                     "Iteration End": start + ITERATION_DUR_US, "Iteration Time(ns)": ITERATION_DUR_US * 1000},
            "cat": "Iteration Time", "ph": "X"}


def hardware_events(i: int) -> list[dict]:
    """Iteration i's Ascend Hardware tracks: the metadata and three tasks."""
    start = ITERATION_US * i
    return [meta(HARDWARE, 0, "process_name", "Ascend Hardware"),
            *(meta(HARDWARE, stream, "thread_name", f"Stream {stream}") for stream in (2, 4, HCCL_STREAM)),
            task("Default/network/Cast-op239", 2, 4, "AI_CORE", start + 10.0, 23.1),
            task("Default/network/DropoutGenMask-op232", 4, 2, "AI_CPU", start + 40.0, 621.83),
            task("NOTIFY_WAIT", HCCL_STREAM, 2, "NOTIFY_WAIT", start + 4100.0, 3.25)]


def hccl_events(i: int) -> list[dict]:
    """Iteration i's HCCL process: the AllReduce operator and two of its tasks on plane 0."""
    start = ITERATION_US * i
    return [meta(HCCL, 0, "process_name", "HCCL"), meta(HCCL, 0, "thread_name", "Plane 0"),
            {"name": "Default/AllReduce-op534_0", "pid": HCCL, "tid": 70000, "ts": start + 4100.0,
             "dur": 9000.5, "ph": "X"},
            hccl_task("Notify_Wait", HCCL_STREAM, 2, start + 4100.0, 3.25),
            hccl_task("Notify_Record", 13, 7, start + 5000.0, 0.04)]


def write(path: Path, events: list[dict]) -> None:
    path.write_text(json.dumps(events), encoding="utf-8")


class ProfTimelineFactory(factory.Factory):
    """Writes ``root/PROF_.../device_0`` with its start_info and timeline JSONs; returns a :class:`ProfTimeline`.

    ``start_info=False`` leaves the start_info out (the timeline stays on the device's clock).
    """

    class Meta:
        model = ProfTimeline

    root = Path(".")
    iterations = 2
    start_info = True

    @classmethod
    def _create(cls, model_class, root, iterations, start_info):
        prof = ProfFolderFactory(root=root, rank_id=0, host_rank_id=0, device_ids=(0,))
        device = prof.devices[0]
        if start_info:
            (device / "start_info.0").write_text(json.dumps(
                {"collectionDateBegin": "2023-08-18 14:27:04.324979",
                 "collectionTimeBegin": str(COLLECTION_TIME_BEGIN_US),
                 "clockMonotonicRaw": str(CLOCK_MONOTONIC_RAW_NS)}, separators=(",", ":")), encoding="utf-8")
        timeline = device / "timeline"
        timeline.mkdir()
        for i in range(1, iterations + 1):
            write(timeline / f"msprof_0_2_{i}.json", [*hardware_events(i), iteration(i), *hccl_events(i)])
            write(timeline / f"task_time_0_2_{i}.json", hardware_events(i))
            write(timeline / f"hccl_0_2_{i}.json", hccl_events(i))
        write(timeline / "step_trace_0_2_1.json", [meta(10036, 0, "process_name", "Step Trace"),
                                                   *(iteration(i) for i in range(1, iterations + 1))])
        return model_class(prof.path, device, timeline)


# --- the summary CSVs and the msprof db of the same device (issue 34) ---------------------------------------

#: the headers msprof writes (its summary assemblers: op_summary, task_time, step_trace)
OP_SUMMARY_HEADER = ("Device_id", "Model ID", "Task ID", "Stream ID", "Op Name", "OP Type", "OP State", "Task Type",
                     "Task Start Time(us)", "Task Duration(us)", "Task Wait Time(us)", "Block Num", "Mix Block Num",
                     "HF32 Eligible", "Input Shapes", "Input Data Types", "Input Formats", "Output Shapes",
                     "Output Data Types", "Output Formats", "Context ID")
TASK_TIME_HEADER = ("Device_id", "kernel_name", "kernel_type", "stream_id", "task_id", "task_time(us)",
                    "task_start(us)", "task_stop(us)")
STEP_TRACE_HEADER = ("Device_id", "Iteration ID", "FP Start(us)", "BP End(us)", "Iteration End(us)",
                     "Iteration Time(us)", "FP to BP Time(us)", "Iteration Refresh(us)", "Data Aug Bound(us)",
                     "Model ID", "Reduce Start(us)", "Reduce Duration(us)")
#: the msprof db's name (PROF_*/msprof_{timestamp}.db)
MSPROF_DB = "msprof_20230818142802.db"
UINT32_MAX = 4294967295
#: the db's name of a timeline task type, where they differ
DB_TASK_TYPES = {"NOTIFY_WAIT": "Notify Wait"}


def epoch_us(monotonic_us: float) -> str:
    """A timeline time (us of the monotonic clock) as msprof's summaries write it: epoch us, 3 decimals."""
    return f"{(Decimal(repr(monotonic_us)) * 1000 + EPOCH_OFFSET_NS) / 1000:.3f}"


def device_tasks(i: int) -> list[dict]:
    """Iteration i's device tasks, as :func:`hardware_events` puts them on the timeline (X events)."""
    return [event for event in hardware_events(i) if event["ph"] == "X"]


def op_summary_rows(iterations: int) -> list[tuple]:
    """op_summary's records: each compute task (HCCL's NOTIFY_WAIT is no operator), then the HCCL operators
    as msprof adds them (Task Type COMMUNICATION, no task, stream nor shapes)."""
    rows = []
    for i in range(1, iterations + 1):
        for task in device_tasks(i)[:2]:
            op_type = task["name"].rsplit("/", 1)[1].split("-", 1)[0]
            rows.append(("0", "4294967295", str(task["args"]["Task Id"]), str(task["tid"]), task["name"], op_type,
                         "static", task["args"]["Task Type"], epoch_us(task["ts"]) + "\t", f"{task['dur']:.3f}",
                         "0", "1", "0", "NO", '"""8,16"""', "FLOAT16", "FORMAT_ND", '"""8,16"""', "FLOAT16",
                         "FORMAT_ND", "N/A"))
        operator = hccl_events(i)[2]
        rows.append(("0", "4294967295", "N/A", "N/A", operator["name"], "AllReduce", "N/A", "COMMUNICATION",
                     epoch_us(operator["ts"]) + "\t", f"{operator['dur']:.3f}", "0", "0", *("N/A",) * 9))
    return rows


def task_time_rows(iterations: int) -> list[tuple]:
    """task_time's records: every device task of the Ascend Hardware streams, HCCL's included."""
    return [("0", task["name"], task["args"]["Task Type"], str(task["tid"]), str(task["args"]["Task Id"]),
             f"{task['dur']:.3f}", epoch_us(task["ts"]) + "\t", epoch_us(task["ts"] + task["dur"]) + "\t")
            for i in range(1, iterations + 1) for task in device_tasks(i)]


def step_trace_rows(iterations: int) -> list[tuple]:
    """step_trace's records: the iterations of :func:`iteration`, with the AllReduce as their reduce."""
    rows = []
    for i in range(1, iterations + 1):
        args = iteration(i)["args"]
        reduce = hccl_events(i)[2]
        rows.append(("0", str(i), epoch_us(args["FP Start"]) + "\t", epoch_us(args["BP End"]) + "\t",
                     epoch_us(args["Iteration End"]) + "\t", f"{ITERATION_DUR_US:.3f}\t",
                     f"{args['BP End'] - args['FP Start']:.3f}", f"{args['Iteration End'] - args['BP End']:.3f}",
                     "0.000", "4294967295", epoch_us(reduce["ts"]) + "\t", f"{reduce['dur']:.3f}\t"))
    return rows


def summary_csv(header: tuple[str, ...], rows: list[tuple]) -> bytes:
    """A summary CSV as msprof's CsvWriter writes it: commas, no quoting of its own, LF line ends."""
    return "".join(",".join(line) + "\n" for line in [header, *rows]).encode("utf-8")


def summary_files(iterations: int) -> dict[str, bytes]:
    """Each summary file's name and bytes, for ``iterations`` iterations."""
    return {"op_summary_0_1.csv": summary_csv(OP_SUMMARY_HEADER, op_summary_rows(iterations)),
            "task_time_0_1.csv": summary_csv(TASK_TIME_HEADER, task_time_rows(iterations)),
            "step_trace_0_1.csv": summary_csv(STEP_TRACE_HEADER, step_trace_rows(iterations))}


def msprof_db_tables(iterations: int) -> dict[str, tuple[str, list[tuple]]]:
    """The msprof db of the same device tasks and HCCL operators (CANN's unified db: TASK,
    COMPUTE_TASK_INFO, COMMUNICATION_OP, COMMUNICATION_TASK_INFO, STRING_IDS, RANK_DEVICE_MAP; epoch ns),
    each task with its id, stream and times; HCCL's notify wait named as the db names it ('Notify Wait')."""
    strings: dict[str, int] = {}

    def s(value: str) -> int:
        return strings.setdefault(value, len(strings))

    tasks, compute, operators, hccl_tasks = [], [], [], []
    for i in range(1, iterations + 1):
        operator = hccl_events(i)[2]
        start = int(Decimal(epoch_us(operator["ts"])) * 1000)
        operators.append((s(operator["name"]), start, start + round(operator["dur"] * 1000), 4294967295,
                          s("group0"), i, 0, 0, 3, s("RING"), 1024, s("AllReduce")))
        for number, task in enumerate(device_tasks(i)):
            start = int(Decimal(epoch_us(task["ts"])) * 1000)
            global_id = 10 * i + number
            tasks.append((start, start + round(task["dur"] * 1000), 0, 4294967295, global_id, 3136493,
                          s(DB_TASK_TYPES.get(task["args"]["Task Type"], task["args"]["Task Type"])), UINT32_MAX,
                          task["tid"], task["args"]["Task Id"],
                          UINT32_MAX))
            if task["tid"] == HCCL_STREAM:
                hccl_tasks.append((s(operator["name"]), global_id, s("Notify Wait"), 0, s("group0"), 160, 65535, 0,
                                   UINT32_MAX, 0, 0, 3, 1, i))
            else:
                compute.append((s(task["name"]), global_id, 1, 0, s(task["args"]["Task Type"]),
                                s(task["name"].rsplit("/", 1)[1].split("-", 1)[0])))
    return {
        "TASK": ("startNs INTEGER, endNs INTEGER, deviceId INTEGER, connectionId INTEGER, globalTaskId INTEGER, "
                 "globalPid INTEGER, taskType INTEGER, contextId INTEGER, streamId INTEGER, taskId INTEGER, "
                 "modelId INTEGER", tasks),
        "COMPUTE_TASK_INFO": ("name INTEGER, globalTaskId INTEGER PRIMARY KEY, blockNum INTEGER, "
                              "mixBlockNum INTEGER, taskType INTEGER, opType INTEGER", compute),
        "COMMUNICATION_OP": ("opName INTEGER, startNs INTEGER, endNs INTEGER, connectionId INTEGER, groupName INTEGER, "
                             "opId INTEGER PRIMARY KEY, relay INTEGER, retry INTEGER, dataType INTEGER, algType INTEGER, "
                             "count NUMERIC, opType INTEGER", operators),
        "COMMUNICATION_TASK_INFO": ("name INTEGER, globalTaskId INTEGER, taskType INTEGER, planeId INTEGER, "
                                    "groupName INTEGER, notifyId INTEGER, rdmaType INTEGER, srcRank INTEGER, "
                                    "dstRank INTEGER, transportType INTEGER, size INTEGER, dataType INTEGER, "
                                    "linkType INTEGER, opId INTEGER", hccl_tasks),
        "RANK_DEVICE_MAP": ("rankId INTEGER, deviceId INTEGER", [(0, 0)]),
        "STRING_IDS": ("id INTEGER PRIMARY KEY, value TEXT", [(number, value) for value, number in strings.items()]),
    }


@dataclass
class ProfSummaries:
    """A written PROF folder with its summaries: the timeline's folders and each summary file."""

    timeline: ProfTimeline
    op_summary: Path
    task_time: Path
    step_trace: Path
    db: Path | None


class ProfSummariesFactory(ProfTimelineFactory):
    """Writes :class:`ProfTimelineFactory`'s folder and, from the same tasks and iterations, the device's
    ``summary/op_summary_0_1.csv``, ``task_time_0_1.csv`` and ``step_trace_0_1.csv`` byte for byte as
    msprof writes them (epoch us, a TAB after each time msprof marks so), and with ``db=True`` its
    ``msprof_*.db`` in the PROF folder. Returns a :class:`ProfSummaries`."""

    class Meta:
        model = ProfSummaries

    db = True

    @classmethod
    def _create(cls, model_class, root, iterations, start_info, db):
        written = super()._create(ProfTimeline, root, iterations, start_info)
        summary = written.device / "summary"
        summary.mkdir()
        files = summary_files(iterations)
        for name, data in files.items():
            (summary / name).write_bytes(data)
        db_path = None
        if db:
            db_path = written.prof / MSPROF_DB
            write_db(db_path, msprof_db_tables(iterations))
        return model_class(written, *(summary / name for name in files), db_path)
