"""factory-boy factories that write MindSpore's data pipeline (MindData) profiler files byte for byte.

As MindSpore writes them (the real files of MindInsight's test resources, tests/utils/resource):
``pipeline_profiling_{device}.json`` compact with sorted keys (the data pipeline monitor's JSON
dump), ``minddata_pipeline_raw_{device}.csv`` through Python's csv writer (CRLF line ends, lists
quoted when they hold a comma, None as an empty cell), ``minddata_cpu_utilization_{device}.json`` the
same JSON dump, ``device_queue_profiling_{device}.txt`` and ``minddata_aicpu_{device}.txt`` as lines of
space-separated fields with LF ends; the raw ``DATA_PREPROCESS.dev.AICPUMI`` the AI CPU writes as
NUL-ended records. Each factory takes ``path`` and returns a
:class:`~factories.text_exports.CsvFile` (``rows`` what was written, ``data`` the bytes).
"""

from __future__ import annotations

import csv
import io
import json

import factory

from factories.text_exports import CsvExportFactory

PIPELINE_HEADER = ("op_id", "op_type", "num_workers", "output_queue_size", "output_queue_average_size",
                   "output_queue_length", "output_queue_usage_rate", "sample_interval", "parent_id", "children_id")


def json_dump(document) -> bytes:
    """A JSON document as MindData's profiler dumps it: compact, keys sorted."""
    return json.dumps(document, sort_keys=True, separators=(",", ":")).encode("utf-8")


def pipeline_op(op_id: int, op_type: str, workers: int, children, sizes=None, length=None) -> dict:
    """One operator of pipeline_profiling's op_info: its output queue's samples when ``sizes`` is given."""
    op = {"op_id": op_id, "op_type": op_type, "num_workers": workers,
          "metrics": None if sizes is None else {"output_queue": {"size": sizes, "length": length}}}
    if children is not None:
        op["children"] = children
    return op


def csv_row(op: dict) -> list:
    """The fields of one minddata_pipeline_raw record (a list of sizes as Python writes a list)."""
    return [op["op_id"], op["op_type"], op["num_workers"], op.get("sizes"), op.get("average"), op.get("length"),
            op.get("usage"), op["interval"], op.get("parent"), op.get("children")]


def csv_bytes(rows) -> bytes:
    """The header and rows as MindSpore's parser writes them with Python's csv writer."""
    text = io.StringIO(newline="")
    writer = csv.writer(text)
    writer.writerow(PIPELINE_HEADER)
    writer.writerows(csv_row(op) for op in rows)
    return text.getvalue().encode("utf-8")


class PipelineProfilingFactory(CsvExportFactory):
    """pipeline_profiling: MindInsight's run_2 pipeline (ImageFolderOp -> two MapOps -> BatchOp, an
    EpochCtrlOp above without a queue) with a ShuffleOp added between the maps whose metrics are null,
    so that the parser's linking around it shows, and the second map's queue fuller than the first's."""

    interval = 10
    rows = factory.LazyFunction(lambda: [
        pipeline_op(3, "ImageFolderOp", 8, None, [0, 0], 128),
        pipeline_op(5, "ShuffleOp", 1, [3]),
        pipeline_op(2, "MapOp", 8, [5], [0, 40], 128),
        pipeline_op(1, "MapOp", 8, [2], [0, 0], 128),
        pipeline_op(0, "BatchOp", 4, [1], [0, 2], 64),
        pipeline_op(4, "EpochCtrlOp", 1, [0]),
    ])
    data = factory.LazyAttribute(lambda o: json_dump({"op_info": o.rows, "sampling_interval": o.interval}))

    class Meta:
        exclude = ("interval",)


class PipelineCsvFactory(CsvExportFactory):
    """minddata_pipeline_raw: the records MindSpore's parser writes for :class:`PipelineProfilingFactory`'s
    file (operator 0 first, then by levels; ShuffleOp and EpochCtrlOp, without a queue, left out)."""

    header = PIPELINE_HEADER
    rows = factory.LazyFunction(lambda: [
        {"op_id": 0, "op_type": "BatchOp", "num_workers": 4, "sizes": [0, 2], "average": 1.0, "length": 64,
         "usage": 0.015625, "interval": 10, "children": [1]},
        {"op_id": 1, "op_type": "MapOp", "num_workers": 8, "sizes": [0, 0], "average": 0.0, "length": 128,
         "usage": 0.0, "interval": 10, "parent": 0, "children": [2]},
        {"op_id": 2, "op_type": "MapOp", "num_workers": 8, "sizes": [0, 40], "average": 20.0, "length": 128,
         "usage": 0.15625, "interval": 10, "parent": 1, "children": [3]},
        {"op_id": 3, "op_type": "ImageFolderOp", "num_workers": 8, "sizes": [0, 0], "average": 0.0, "length": 128,
         "usage": 0.0, "interval": 10, "parent": 2},
    ])
    data = factory.LazyAttribute(lambda o: csv_bytes(o.rows))


def cpu_document(times, device: dict, process: dict, ops: dict) -> dict:
    """minddata_cpu_utilization's document: sample times and the device's, process's and operators' series."""
    return {"sampling_interval": 100, "cpu_processor_num": 96, "time_stamp": times, "device_info": device,
            "process_info": process,
            "op_info": [{"op_id": op_id, "metrics": metrics} for op_id, metrics in ops.items()]}


class CpuUtilizationFactory(CsvExportFactory):
    """minddata_cpu_utilization: three samples of a host 85 % active on average (idle 10, 20, 15)."""

    rows = factory.LazyFunction(lambda: [cpu_document(
        [1000, 1100, 1200],
        {"user_utilization": [50, 45, 55], "sys_utilization": [40, 35, 30], "io_utilization": [0, 0, 0],
         "idle_utilization": [10, 20, 15], "runable_processes": [3, 5, 4], "context_switch_count": [900, 850, 870]},
        {"user_utilization": [30, 25, 35], "sys_utilization": [5, 5, 5]},
        {1: {"user_utilization": [10, 12, 14], "sys_utilization": [1, 1, 1]},
         -1: {"user_utilization": [2, 2, 2], "sys_utilization": [0, 0, 0]}},
    )])
    data = factory.LazyAttribute(lambda o: json_dump(o.rows[0]))


def text_lines(rows) -> bytes:
    """Space-separated fields, a line each, LF-ended."""
    return "".join(" ".join(str(field) for field in row) + "\n" for row in rows).encode("utf-8")


def queue_step(step: int, get_ms: int, push_ms: int, size: int, capacity: int = 64, time_ms: int = 0) -> list:
    """The four records of one step as the data queue operator writes them: get, push, total, queue."""
    return [[0, 0, step, get_ms, time_ms], [0, 1, step, push_ms, time_ms], [0, 2, step, get_ms + push_ms, time_ms],
            [1, capacity, step, size, time_ms]]


class DeviceQueueFactory(CsvExportFactory):
    """device_queue_profiling: four steps, the queue empty in steps 1 and 3, full in step 4."""

    rows = factory.LazyFunction(lambda: [
        *queue_step(1, 12, 4, 0, time_ms=85406783), *queue_step(2, 1, 3, 8, time_ms=85406790),
        *queue_step(3, 9, 4, 0, time_ms=85406801), *queue_step(4, 0, 2, 64, time_ms=85406803),
    ])
    data = factory.LazyAttribute(lambda o: text_lines(o.rows))


#: the three GetNext lines of MindInsight's run_2 resource (minddata_aicpu_1.txt): node, start and end (us), queue size
GET_NEXT = (
    ("GetNext_dequeue_wait", 154907895305, 154907895306, 3),
    ("GetNext_dequeue_wait", 154907895614, 154907895614, 2),
    ("GetNext_dequeue_wait", 154907896920, 154907896921, 1),
)


class GetNextFactory(CsvExportFactory):
    """minddata_aicpu: the three GetNext lines of MindInsight's run_2 resource (minddata_aicpu_1.txt,
    times in us), which its tests read."""

    rows = factory.LazyFunction(lambda: [list(row) for row in GET_NEXT])
    data = factory.LazyAttribute(lambda o: text_lines(o.rows))


def get_next_records(rows, queue_first: bool = True) -> bytes:
    """DATA_PREPROCESS.dev.AICPUMI: each GetNext ``(node, start us, end us, queue size)`` a NUL-ended record
    of ``, ``-separated fields, the queue size first (MindSpore's "queue" records) or last ("run" ones)."""
    data = b""
    for node, start, end, size in rows:
        run = f"Run start:{start}, Run end:{end}"
        fields = f"queue size:{size}, {run}" if queue_first else f"{run}, queue size:{size}"
        data += f"Node:{node}, {fields}\x00".encode()
    return data


class GetNextRawFactory(CsvExportFactory):
    """DATA_PREPROCESS.dev.AICPUMI: GetNextFactory's three GetNext records, as the AI CPU writes them."""

    rows = factory.LazyFunction(lambda: [list(row) for row in GET_NEXT])
    queue_first = True
    data = factory.LazyAttribute(lambda o: get_next_records(o.rows, o.queue_first))

    class Meta:
        exclude = ("queue_first",)
