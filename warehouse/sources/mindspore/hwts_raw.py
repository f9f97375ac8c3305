"""hwts.log.data.45.dev.profiler_default_tag.{device}.slice_{n}: the device's tasks, named by the framework.

The hardware task scheduler (HWTS) log is a run of 64-byte records, little-endian, as MindSpore's
HWTS parser (hwts_log_parser.py) reads them: byte 0 holds the record type in its low three bits
(0 start of task, 1 end of task, 2 start of block, 3 end of block, 4 block PMU); bytes 1, 4-5 and
6-7 the core, block and task ids; a task start or end record then has the system counter (8
bytes, 100 MHz: 10 ns a cycle) and the stream id (4 bytes) at bytes 8 and 16. A record of blank
bytes only is skipped, as MindSpore does.

A task is a start record and the next end record of the same stream and task id: every task goes
to ``mindspore_hwts_task``. Its operator comes from the Framework files beside the log
(:mod:`~warehouse.sources.mindspore.framework`): every named task is a ``kernel`` too (origin
``mindspore_hwts``), with the operator's own name, type, block dim and tensors, and the core the
seed says those files describe (AI Core); it is then classified as every kernel is. The tasks no
framework file names (MindSpore's parser leaves them out too) are no kernels. Records of other
types, records that pair with none and tasks ending before they start are counted in
``source.detail``. A file that is not a whole number of records fails naming the byte offset of
the one cut short.
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
from warehouse.sources.kit.text import insert_sql
from warehouse.sources.mindspore.device import device_of
from warehouse.sources.mindspore.framework import operators_of, task_key

KIND = "mindspore_hwts_raw"
#: kernel.origin of its kernels
ORIGIN = "mindspore_hwts"
NAME = re.compile(r"hwts\.log\.data\.45\.dev\.profiler_default_tag\.(\d{1,9})\.slice_\d{1,9}")
RECORD_BYTES = 64
#: type, core, block and task id (bytes 0-7), then a task record's counter and stream (bytes 8-19)
HEAD = struct.Struct("<BBxxHH")
TASK = struct.Struct("<QI")
START, END = 0, 1
TYPES = ("task_start", "task_end", "block_start", "block_end", "block_pmu")
NS_PER_CYCLE = 10
#: the last counter whose ns an SQLite INTEGER holds
MAX_CYCLE = INT64_MAX // NS_PER_CYCLE
#: the core the framework's task files name the operators of (seed 003)
CORE = "AI_CORE"
COLUMNS = ["source_id", "source_row", "origin", "rank_id", "device_id", "task_id", "stream_id", "name", "op_type",
           "accelerator_core", "ts", "dur", "block_dim", "input_shapes", "input_dtypes", "input_formats",
           "output_shapes", "output_dtypes", "output_formats"]
INSERT = insert_sql("kernel", COLUMNS)
TASK_SQL = insert_sql("mindspore_hwts_task",
                      ["source_id", "source_row", "rank_id", "stream_id", "task_id", "start_ns", "end_ns"])


def detect(path) -> bool:
    """MindSpore's file name for the HWTS log."""
    return NAME.fullmatch(Path(path).name.removesuffix(".gz")) is not None


def records(path, data: bytes, counts: Counter):
    """(record number, type, stream, task id, cycle) of every task start and end record of the log;
    ``counts`` gets the records by type.

    :raises IngestError: naming the byte offset of a record cut short, or of a counter past what ns can hold.
    """
    whole = len(data) - len(data) % RECORD_BYTES
    if whole != len(data):
        raise IngestError(f"{path}: byte {whole}: a record cut short ({len(data) - whole} of {RECORD_BYTES} bytes)")
    for offset in range(0, whole, RECORD_BYTES):
        record = data[offset:offset + RECORD_BYTES]
        if not record.strip():
            counts["blank"] += 1
            continue
        first, _core, _block, task_id = HEAD.unpack_from(record)
        kind = first & 0b111
        counts[TYPES[kind] if kind < len(TYPES) else "unknown_type"] += 1
        if kind not in (START, END):
            continue
        cycle, stream = TASK.unpack_from(record, 8)
        if cycle > MAX_CYCLE:
            raise IngestError(f"{path}: byte {offset + 8}: a counter past what ns can hold: {cycle}")
        yield offset // RECORD_BYTES + 1, kind, stream, task_id, cycle


def pair(found, counts: Counter) -> list[tuple[int, int, int, int, int]]:
    """(number of the start, stream, task id, start cycle, end cycle) of every task ``found``'s records
    ``(number, type, stream, task id, cycle)`` make, in the order they started: a start record and the
    next end record of its stream and task id. ``counts`` gets the records that pair with none and the
    tasks ending before they start (left out)."""
    started, done = {}, []
    for number, kind, stream, task_id, cycle in found:
        if kind == START:
            if (stream, task_id) in started:
                counts["unpaired"] += 1
            started[(stream, task_id)] = (number, cycle)
        elif (stream, task_id) in started:
            first, start = started.pop((stream, task_id))
            if cycle < start:
                counts["ends_before_start"] += 1
                continue
            done.append((first, stream, task_id, start, cycle))
        else:
            counts["unpaired"] += 1
    if started:
        counts["unpaired"] += len(started)
    return sorted(done)


def insert_tasks(conn, source_id: int, rank: int, found) -> None:
    """Insert the tasks :func:`pair` gives into ``mindspore_hwts_task``, their cycles as ns."""
    multirow.insert_rows(conn, TASK_SQL, ((source_id, number, rank, stream_id, task_id, start * NS_PER_CYCLE,
                                           end * NS_PER_CYCLE) for number, stream_id, task_id, start, end in found))


def ingest(conn, path: str | Path, source_id: int) -> Outcome:
    """Insert the log's tasks that the framework names as kernels (module doc)."""
    path = Path(path)
    rank, device = device_of(path, NAME)
    with open_binary(path) as stream:
        data = stream.read()
    counts = Counter()
    found = pair(records(path, data, counts), counts)
    operators, files = operators_of(path, device)
    rows = []
    for number, stream_id, task_id, start, end in found:
        operator = operators.get(task_key(stream_id, task_id))
        if operator is None:
            continue
        rows.append((source_id, number, ORIGIN, rank, device, task_id, stream_id, operator.name,
                     operator.op_type, CORE, start * NS_PER_CYCLE, (end - start) * NS_PER_CYCLE, operator.block_dim,
                     *operator.tensor_columns()))
    multirow.insert_rows(conn, INSERT, rows)
    insert_tasks(conn, source_id, rank, found)
    detail = {"table": "mindspore_hwts_task", "framework_files": files, "tasks": len(found), "named": len(rows),
              "records": dict(sorted(counts.items()))}
    return Outcome(rows=len(rows) + len(found), rank_id=rank, device_id=device, detail=detail)
