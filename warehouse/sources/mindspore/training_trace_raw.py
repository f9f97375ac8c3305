"""training_trace.46.dev.profiler_default_tag.{device}.slice_{n}: the device's steps with MindSpore's phases.

The training trace is a run of 20-byte records, little-endian, as MindSpore's step trace parser
(step_trace_parser.py) reads them: the tag (8 bytes), the task id and the stream id (2 bytes each)
and the system counter (8 bytes, 100 MHz: 10 ns a cycle). A tag of 0 or over 255 (the job id)
starts a step, 1 marks the forward pass, 2 the end of the backward pass, 255 the step's end; any
other tag is a point of a reduce operator, on its stream, the stream's points taken two by two
(start, end).

Each step ending with a 255 record is a step, numbered from 1 as MindSpore numbers them (a step
without its forward or backward point keeps its number but is not stored, as MindSpore warns
and skips it). Its start is the previous step's end (the first step starts at its forward pass:
no iteration interval), its phases MindSpore's: iteration interval (start to forward pass),
forward and backward, iteration tail (backward end to step end). The steps go to ``step`` (one run
of one device, the device from the file name) and to ``mindspore_step_trace``, the reduce
operators to ``mindspore_step_stream`` named as MindSpore names them
(``stream_{stream}_parallel_{n}``), as :mod:`~warehouse.sources.mindspore.step_trace_raw` writes
the same steps from MindSpore's intermediate. A file that is not a whole number of records fails
naming the byte offset of the one cut short.
"""

from __future__ import annotations

import re
import struct
from collections import Counter
from pathlib import Path

from warehouse.errors import IngestError
from warehouse.sources.base import Outcome, open_binary
from warehouse.sources.kit import multirow
from warehouse.sources.kit.numbers import INT64_MAX
from warehouse.sources.mindspore.device import device_of
from warehouse.sources.mindspore.step_trace_raw import MARKER_SQL, NS_PER_CYCLE, STEP_SQL, STREAM_SQL

KIND = "mindspore_training_trace_raw"
NAME = re.compile(r"training_trace\.46\.dev\.profiler_default_tag\.(\d{1,9})\.slice_\d{1,9}")
RECORD = struct.Struct("<QHHQ")
FP, BP, END = 1, 2, 255


def detect(path) -> bool:
    """MindSpore's file name for the training trace."""
    return NAME.fullmatch(Path(path).name.removesuffix(".gz")) is not None


def is_step_start(tag: int) -> bool:
    """A tag that starts a step: 0 or a job id (over 255)."""
    return tag == 0 or tag > END


def events(path, data: bytes):
    """(record number, tag, stream, cycle) of every record.

    :raises IngestError: naming the byte offset of a record cut short or of a counter past ns.
    """
    whole = len(data) - len(data) % RECORD.size
    if whole != len(data):
        raise IngestError(f"{path}: byte {whole}: a record cut short ({len(data) - whole} of {RECORD.size} bytes)")
    for offset in range(0, whole, RECORD.size):
        tag, _task, stream, cycle = RECORD.unpack_from(data, offset)
        if cycle > INT64_MAX // NS_PER_CYCLE:
            raise IngestError(f"{path}: byte {offset + 12}: a counter past what ns can hold: {cycle}")
        yield offset // RECORD.size + 1, tag, stream, cycle


def steps(path, data: bytes, counts: Counter) -> list[tuple]:
    """(record of the step's end, step number, start, end, forward, backward, {stream: points}) of every
    stored step, in cycles; ``counts`` gets the steps left out and why."""
    found, step, previous_end, number = [], {"reduce": {}}, None, 0
    for record, tag, stream, cycle in events(path, data):
        if is_step_start(tag):
            step = {"reduce": {}}
        elif tag == FP:
            step["fp"] = cycle
        elif tag == BP:
            step["bp"] = cycle
        elif tag != END:
            step["reduce"].setdefault(stream, []).append(cycle)
        else:
            number += 1
            start = previous_end if previous_end is not None else step.get("fp")
            previous_end = cycle
            if "fp" not in step or "bp" not in step:
                counts["without_forward_or_backward"] += 1
            elif not start <= step["fp"] <= step["bp"] <= cycle:
                counts["points_out_of_order"] += 1
            else:
                found.append((record, number, start, cycle, step["fp"], step["bp"], step["reduce"]))
            step = {"reduce": {}}
    return found


def ingest(conn, path: str | Path, source_id: int) -> Outcome:
    """Insert the trace's steps, their phases and their reduce operators (module doc)."""
    rank, device = device_of(path, NAME)
    with open_binary(path) as stream:
        data = stream.read()
    counts = Counter()
    found = steps(path, data, counts)
    step_rows, stream_rows = [], []
    for record, number, start, end, fp, bp, reduce in found:
        key = (source_id, record, rank, number)
        points = [cycles * NS_PER_CYCLE for cycles in (start, end, end - start, fp, bp, fp - start, bp - fp, end - bp)]
        step_rows.append((*key, *points))
        for stream_id, cycles in sorted(reduce.items()):
            if len(cycles) % 2:
                counts["reduce_streams_with_odd_points"] += 1
                continue
            for index in range(len(cycles) // 2):
                first, last = cycles[2 * index] * NS_PER_CYCLE, cycles[2 * index + 1] * NS_PER_CYCLE
                stream_rows.append((*key, stream_id, f"stream_{stream_id}_parallel_{index}", first, last, last - first))
    multirow.insert_rows(conn, STEP_SQL, step_rows)
    multirow.insert_rows(conn, STREAM_SQL, stream_rows)
    multirow.insert_rows(conn, MARKER_SQL, ((rank, row[3], row[4], row[5], source_id) for row in step_rows))
    detail = {"table": "mindspore_step_trace", "steps": len(step_rows), "left_out": dict(sorted(counts.items()))}
    return Outcome(rows=2 * len(step_rows) + len(stream_rows), rank_id=rank, device_id=device, detail=detail)
