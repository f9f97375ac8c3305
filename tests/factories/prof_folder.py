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
from pathlib import Path

import factory

from tests.factories.cluster_outputs import ProfFolderFactory

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
