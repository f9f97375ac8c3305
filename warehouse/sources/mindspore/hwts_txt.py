"""output_format_data_hwts_{device}.txt: MindSpore's text dump of the device's HWTS log.

MindSpore's HWTS parser (``HWTSLogParser``, hwts_log_parser.py) writes it from the raw
``hwts.log.data.45.dev.profiler_default_tag.{device}.slice_{n}``
(:mod:`~warehouse.sources.mindspore.hwts_raw`): a banner ``====================45 HWTS
data====================``, a header line, then a line per record of the log, blank records and
records of an unknown type left out: its type (``Start of task``, ``End of task``, ``Start of
block``, ``End of block``, ``Block PMU``), the record count, core, block and task id, the system
counter (cycles of 100 MHz; ``None`` for a block PMU record without one) and the stream, padded with
spaces (``"%-14s %-4s %-8s %-9s %-8s %-15s %s"``). A task id is written ``{stream}_{task}`` (older
versions did so below 25000 and wrote a larger id alone; later ones always, adding 65536 for each time
a dynamic-shape graph's task ids start again on the stream).

The tasks are those of the raw log, paired the same way (:func:`~warehouse.sources.mindspore.hwts_raw.pair`),
and go to ``mindspore_hwts_task`` (source_row the line of the start record; task_id as written after the
stream). Where the raw log of the run and device is ingested too, it answers (the fact hwts_task) and the
audit ``mindspore_hwts_agrees`` reconciles the two. The dump names no operator: MindSpore's own join of
it with the framework description is ``output_timeline_data_{device}.txt``, whose tasks are kernels
(:mod:`~warehouse.sources.mindspore.timeline_data`). A line that is not a record of the seven fields
fails the file naming the line.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from warehouse.errors import IngestError
from warehouse.sources.base import Outcome
from warehouse.sources.kit.numbers import whole
from warehouse.sources.mindspore.device import device_of, named_text
from warehouse.sources.mindspore.framework import lines
from warehouse.sources.mindspore.hwts_raw import END, MAX_CYCLE, START, TYPES, insert_tasks, pair

KIND = "mindspore_hwts_txt"
NAME = re.compile(r"output_format_data_hwts_(\d{1,9})\.txt")
BANNER = "=" * 20 + "45 HWTS data" + "=" * 20
HEADER = ("Type", "cnt", "Core_ID", "Block_ID", "Task_ID", "Cycle_counter", "Stream_ID")
#: each record type's label, in the order of the type numbers
LABELS = ("Start of task", "End of task", "Start of block", "End of block", "Block PMU")
RECORD = re.compile(rf"({'|'.join(LABELS)}) +(\d+) +(\d+) +(\d+) +(?:(\d+)_)?(\d+) +(\d+|None) +(\d+)")


def detect(path) -> bool:
    """MindSpore's file name, and its banner first."""
    return named_text(path, (NAME,), lambda line: line == BANNER)


def records(path: Path, counts: Counter):
    """(line number, type, stream, task id, cycle) of every task start and end line; ``counts`` gets the
    records by type (as the raw log's are counted).

    :raises IngestError: naming the line that is not the banner, the header or a record, whose task id
        names another stream than its own, or whose counter is past what ns can hold.
    """
    for place, (number, text) in enumerate(lines(path)):
        if place < 2:
            expected = (BANNER, " ".join(HEADER))[place]
            if " ".join(text.split()) != expected:
                raise IngestError(f"{path}: line {number}: expected {expected!r}, found {text[:80]!r}")
            continue
        match = RECORD.fullmatch(text)
        if match is None:
            raise IngestError(f"{path}: line {number}: not an HWTS record of {len(HEADER)} fields: {text[:80]!r}")
        label, _count, _core, _block, prefix, task, cycle, stream = match.groups()
        kind = LABELS.index(label)
        counts[TYPES[kind]] += 1
        if kind not in (START, END):
            continue
        try:
            stream_id, task_id = whole(stream), whole(task)
            if prefix is not None and whole(prefix) != stream_id:
                raise ValueError(f"task {prefix}_{task} of stream {prefix} on stream {stream}")
            if cycle == "None":
                raise ValueError("a task record without its counter")
            if whole(cycle) > MAX_CYCLE:
                raise ValueError(f"a counter past what ns can hold: {cycle}")
        except ValueError as exc:
            raise IngestError(f"{path}: line {number}: {exc}") from None
        yield number, kind, stream_id, task_id, whole(cycle)


def ingest(conn, path: str | Path, source_id: int) -> Outcome:
    """Insert the dump's tasks (module doc)."""
    path = Path(path)
    rank, device = device_of(path, NAME)
    counts = Counter()
    found = pair(records(path, counts), counts)
    insert_tasks(conn, source_id, rank, found)
    detail = {"table": "mindspore_hwts_task", "tasks": len(found), "records": dict(sorted(counts.items()))}
    return Outcome(rows=len(found), rank_id=rank, device_id=device, detail=detail)
