"""device_queue_profiling_{device}.txt: the time of each step's batch on its way to the device.

MindSpore's data queue operator writes a line of space-separated whole numbers per record
(read by MindInsight's minddata analyser, mindinsight/profiler/analyser/minddata_analyser.py):
``0 {kind} {step} {ms} {time}``, a step's time to get its batch from the pipeline (kind 0), to push
it to the device (1) or both (2), and ``1 {capacity} {step} {size} {time}``, the device queue's size
when the step's batch was sent; ``time`` is the host clock in ms. ``dataset_iterator_profiling_{device}.txt``
is its twin when a dataset iterator feeds the network instead (the same records). Each record is one
``mindspore_device_queue`` row. A step whose queue was empty waited for data: MindInsight warns
when more than 30 % of the steps did (``DEVICE_QUEUE_EMPTY_WARNING_THRESHOLD``).
"""

from __future__ import annotations

import re
from pathlib import Path

from warehouse.errors import IngestError
from warehouse.sources.base import Outcome
from warehouse.sources.kit.numbers import int64, whole
from warehouse.sources.kit.text import insert_sql
from warehouse.sources.mindspore.device import device_of, named_text
from warehouse.sources.mindspore.framework import lines

KIND = "mindspore_device_queue_txt"
NAME = re.compile(r"(?:device_queue|dataset_iterator)_profiling_(\d{1,9})\.txt")
#: what fed the device: the first word of the file name
FEEDERS = ("device_queue", "dataset_iterator")
#: a record: four or five whole numbers separated by blanks, the first 0 (a time) or 1 (the queue)
RECORD = re.compile(r"[01](\s+\d+){3,4}")
#: what a time record of each kind holds
TIMES = {0: "get", 1: "push", 2: "total"}
NS_PER_MS = 10**6
INSERT = insert_sql("mindspore_device_queue", ["source_id", "source_row", "rank_id", "feeder", "record", "step_id",
                                               "cost_ns", "queue_size", "queue_capacity", "time_ms"])


def detect(path) -> bool:
    return named_text(path, (NAME,), lambda first: RECORD.fullmatch(first) is not None)


def ingest(conn, path, source_id) -> Outcome:
    rank, device = device_of(path, NAME)
    feeder = next(name for name in FEEDERS if Path(path).name.startswith(name))
    rows = [(source_id, number, rank, feeder, *_record(path, number, text)) for number, text in lines(Path(path))]
    conn.executemany(INSERT, rows)
    return Outcome(rows=len(rows), rank_id=rank, device_id=device, detail={"table": "mindspore_device_queue"})


def _record(path, number: int, text: str) -> tuple:
    """(record, step, cost in ns, queue size, capacity, time in ms) of one line.

    :raises IngestError: naming the line when it is not a record.
    """
    if RECORD.fullmatch(text) is None:
        raise IngestError(f"{path}: line {number}: expected '<0|1> <kind or capacity> <step> <ms or size> [time]', "
                          f"found {text[:80]!r}")
    try:
        fields = [whole(field) for field in text.split()]
        kind, second, step, value = fields[:4]
        time_ms = fields[4] if len(fields) == 5 else None
        if kind == 1:
            return "queue", step, None, value, second, time_ms
        if second not in TIMES:
            raise ValueError(f"a time record of kind {second} (0 get, 1 push, 2 total)")
        return TIMES[second], step, int64(value * NS_PER_MS, fields[3]), None, None, time_ms
    except ValueError as exc:
        raise IngestError(f"{path}: line {number}: {exc}") from None
