"""output_timeline_data_{device}.txt: MindSpore's own kernel timeline of one device.

MindSpore's operator time parser (``OPComputeTimeParser``, optime_parser.py) writes it from the HWTS
log's text dump (:mod:`~warehouse.sources.mindspore.hwts_txt`) and the framework description: a header
``op_name, stream_id, start_time(ms), duration(ms)``, then per executed task of an operator the
framework names, sorted by start, its full name (scope included), stream, start and duration in ms
(system counter cycles / 1e5, as Python prints the float) separated by commas. Its per-operator mean
is the execution time of ``aicore_intermediate_{device}_detail.csv`` (for all 105 operators of
MindInsight's run_2 test resources; MindSpore's pynative parser rounds it to 6 decimals).

Each line is a ``kernel`` (origin ``mindspore_timeline``): named by the operator's own name and typed
as MindSpore types it from the name (:func:`~warehouse.sources.mindspore.framework.type_of`), on the
core the raw HWTS log's named tasks get (AI Core); the file names no task id, block dim or tensors.
The raw HWTS log with its Framework files answers the kernels of the run and device before it (the
fact kernel). The audit ``mindspore_timeline_agrees`` reconciles the timeline with the device's HWTS tasks
(the raw log, else its dump) and the raw log's named kernels: MindSpore pairs a task's start only with the
next named record, so a task another one starts inside is missing from its timeline. A line that is not four
fields of a name and three numbers, or with a negative duration, fails the file naming the line.
"""

from __future__ import annotations

import re
from pathlib import Path

from warehouse.errors import IngestError
from warehouse.sources.base import Outcome
from warehouse.sources.kit import multirow
from warehouse.sources.kit.numbers import whole
from warehouse.sources.kit.text import insert_sql, ms_to_ns
from warehouse.sources.mindspore.device import device_of, named_text
from warehouse.sources.mindspore.framework import lines, own_name, type_of
from warehouse.sources.mindspore.hwts_raw import CORE

KIND = "mindspore_timeline_txt"
#: kernel.origin of its kernels
ORIGIN = "mindspore_timeline"
NAME = re.compile(r"output_timeline_data_(\d{1,9})\.txt")
HEADER = "op_name, stream_id, start_time(ms), duration(ms)"
INSERT = insert_sql("kernel", ["source_id", "source_row", "origin", "rank_id", "device_id", "stream_id", "name",
                               "op_type", "accelerator_core", "ts", "dur"])


def detect(path) -> bool:
    """MindSpore's file name, and its header first."""
    return named_text(path, (NAME,), lambda line: line == HEADER)


def read(path: Path) -> list[tuple[int, str, int, int, int]]:
    """(line number, full name, stream, start ns, duration ns) of every line after the header.

    :raises IngestError: naming the line that is not the header, not four fields of a name and three
        numbers, or of a negative duration.
    """
    rows = []
    for place, (number, text) in enumerate(lines(path)):
        if place == 0:
            if text != HEADER:
                raise IngestError(f"{path}: line {number}: expected the header {HEADER!r}, found {text[:80]!r}")
            continue
        fields = text.split(",")
        try:
            if len(fields) != 4 or not fields[0] or not fields[1].isdigit():
                raise ValueError(f"expected '<op name>,<stream>,<start ms>,<duration ms>', found {text[:80]!r}")
            start, duration = ms_to_ns(fields[2]), ms_to_ns(fields[3])
            if start is None or duration is None or duration < 0:
                raise ValueError(f"a start and a duration of 0 or more expected: {fields[2]!r}, {fields[3]!r}")
            rows.append((number, fields[0], whole(fields[1]), start, duration))
        except ValueError as exc:
            raise IngestError(f"{path}: line {number}: {exc}") from None
    return rows


def ingest(conn, path: str | Path, source_id: int) -> Outcome:
    """Insert the timeline's kernels (module doc)."""
    path = Path(path)
    rank, device = device_of(path, NAME)
    rows = read(path)
    multirow.insert_rows(conn, INSERT, ((source_id, number, ORIGIN, rank, device, stream, own_name(name),
                                         type_of(name), CORE, start, duration)
                                        for number, name, stream, start, duration in rows))
    detail = {"table": "kernel", "kernels": len(rows), "operators": len({row[1] for row in rows})}
    return Outcome(rows=len(rows), rank_id=rank, device_id=device, detail=detail)
