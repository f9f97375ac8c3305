"""step_trace_raw_{device}_detail_time.csv: MindSpore's step trace of one device, with its phases.

MindSpore's step trace parser (mindspore/profiler/parser/step_trace_parser.py) writes one record
per step: ``step_num``, its points (``start_point`` = the previous step's end, ``fp_point``,
``bp_point``, ``end_point``) and MindSpore's phases of the step (``iteration_interval`` from the
start to the forward pass, ``fp_and_bp``, ``tail`` from the backward pass to the end; they add
up to ``total``), then one group of three columns per reduce or parallel operator: in the current
layout ``stream_{s}_{i}_{operator}``, ``..._start_point``, ``..._end_point``; in the older
``stream_{s}_parallel_{i}_start_point``, ``..._end_point``, ``stream_{s}_parallel_{i}``.

Every point and length is in system counter cycles of 100 MHz (MindInsight's ``to_millisecond``
divides by 100000), so one cycle is 10 ns. The last record, with ``step_num`` ``-``, is MindSpore's
mean of the steps after the first (``_record_average_info``), the figure MindInsight reads for the
device (its step trace summary, its parallel analyser's ``get_step_interval``). In a file cut to
its first steps it is about steps the file no longer holds, so its phases are kept as written
(``mindspore_step_average``; its operator groups' means are not).

The steps go to ``step`` (one run of one device, the device from the file name) and to
``mindspore_step_trace`` with their phases; the operator groups to ``mindspore_step_stream``.
"""

from __future__ import annotations

import re
from pathlib import Path

from warehouse.errors import IngestError
from warehouse.sources.base import Outcome
from warehouse.sources.kit import multirow
from warehouse.sources.kit.numbers import whole
from warehouse.sources.kit.text import Column, column_plan, convert_row, has_headers, insert_sql, open_records, \
    scaled
from warehouse.sources.mindspore.device import device_of

KIND = "mindspore_step_trace_csv"
#: the file name MindSpore gives it (the device number in it)
NAME = re.compile(r"step_trace_raw_(\d{1,9})_detail_time\.csv")
#: ns per system counter cycle (100 MHz)
NS_PER_CYCLE = 10
cycles_to_ns = scaled(NS_PER_CYCLE)
#: ``step_num`` of MindSpore's average record
AVERAGE = "-"
#: the stream of an operator group's column name
STREAM = re.compile(r"stream_(\d{1,9})_")


def step_number(value: str) -> int:
    """A step number (a whole number, never empty).

    :raises ValueError: otherwise.
    """
    cleaned = value.strip()
    if not cleaned.isdigit():
        raise ValueError(f"not a step number: {cleaned[:40]!r}")
    return whole(cleaned)


#: the step columns, in the order of ``mindspore_step_trace`` after its first four
STEP_COLUMNS = (
    Column("start_ns", ("start_point",), cycles_to_ns),
    Column("end_ns", ("end_point",), cycles_to_ns),
    Column("total_ns", ("total",), cycles_to_ns),
    Column("fp_point_ns", ("fp_point",), cycles_to_ns),
    Column("bp_point_ns", ("bp_point",), cycles_to_ns),
    Column("iteration_interval_ns", ("iteration_interval",), cycles_to_ns),
    Column("fp_and_bp_ns", ("fp_and_bp",), cycles_to_ns),
    Column("tail_ns", ("tail",), cycles_to_ns),
)
REQUIRED = frozenset({"step_num", *(column.headers[0] for column in STEP_COLUMNS)})
#: the phases of the average record, in the order of ``mindspore_step_average`` after its first three
AVERAGE_COLUMNS = tuple(column for column in STEP_COLUMNS
                        if column.name in ("total_ns", "iteration_interval_ns", "fp_and_bp_ns", "tail_ns"))
STEP_SQL = insert_sql("mindspore_step_trace", [
    "source_id", "source_row", "rank_id", "step_id", *(column.name for column in STEP_COLUMNS)])
STREAM_SQL = insert_sql("mindspore_step_stream", [
    "source_id", "source_row", "rank_id", "step_id", "stream_id", "name", "start_ns", "end_ns", "duration_ns"])
MARKER_SQL = insert_sql("step", ["rank_id", "step_id", "start_ns", "end_ns", "source_id"])
AVERAGE_SQL = insert_sql("mindspore_step_average", [
    "source_id", "source_row", "rank_id", *(column.name for column in AVERAGE_COLUMNS)])


def detect(path) -> bool:
    """A CSV whose header has MindSpore's step trace columns."""
    return has_headers(path, REQUIRED)


def stream_groups(header: list[str]) -> list[tuple[str, int | None, tuple[Column, ...]]]:
    """(name, stream, its three columns) of every operator group: a ``{name}_start_point`` header
    whose ``{name}_end_point`` and ``{name}`` are there too.

    :raises ValueError: naming a ``_start_point`` header without the other two.
    """
    names = set(header)
    groups = []
    for start in header:
        name = start.removesuffix("_start_point")
        if name == start or start == "start_point":
            continue
        if f"{name}_end_point" not in names or name not in names:
            raise ValueError(f"column {start!r} without {name + '_end_point'!r} and {name!r}")
        stream = STREAM.match(name)
        groups.append((name, int(stream[1]) if stream else None, (
            Column("start_ns", (start,), cycles_to_ns),
            Column("end_ns", (f"{name}_end_point",), cycles_to_ns),
            Column("duration_ns", (name,), cycles_to_ns),
        )))
    return groups


def ingest(conn, path: str | Path, source_id: int) -> Outcome:
    """Insert the file's steps, their phases and their operator groups (module doc)."""
    rank, device = device_of(path, NAME)
    with open_records(path) as records:
        steps, streams, average = _read(path, records, (source_id, rank))
    multirow.insert_rows(conn, STEP_SQL, steps)
    multirow.insert_rows(conn, STREAM_SQL, streams)
    multirow.insert_rows(conn, MARKER_SQL, ((rank, s[3], s[4], s[5], source_id) for s in steps))
    multirow.insert_rows(conn, AVERAGE_SQL, average)
    detail = {"table": "mindspore_step_trace"}
    return Outcome(rows=2 * len(steps) + len(streams) + len(average), rank_id=rank, device_id=device,
                   detail=detail)


def _read(path, records, key: tuple[int, int]) -> tuple[list[tuple], list[tuple], list[tuple]]:
    """The step rows, operator rows and average row (none when the file has no average record) of the
    records, each starting with ``key``, the source and the rank.

    :raises IngestError: naming the line of a short record, a record after the average one, or a
        field that does not convert.
    """
    try:
        groups = stream_groups(records.header)
    except ValueError as exc:
        raise IngestError(f"{path}: line 1: {exc}") from None
    step_plan = column_plan(records.header, STEP_COLUMNS)
    group_plans = [(name, stream, column_plan(records.header, columns)) for name, stream, columns in groups]
    average_plan = column_plan(records.header, AVERAGE_COLUMNS)
    step_at = records.header.index("step_num")
    steps, streams, average, average_line = [], [], [], None
    for number, line, row, short in records:
        if average_line is not None:
            raise IngestError(f"{path}: line {line}: a record after the average record (line {average_line})")
        if short:
            raise IngestError(f"{path}: line {line}: {len(row)} fields for a header of {len(records.header)}")
        if row[step_at].strip() == AVERAGE:
            average_line = line
            average.append((key[0], number, key[1], *convert_row(path, line, row, average_plan)))
            continue
        step = (*key[:1], number, *key[1:], _step(path, line, row[step_at]))
        steps.append((*step, *_step_times(path, line, row, step_plan)))
        for name, stream, plan in group_plans:
            times = convert_row(path, line, row, plan)
            if any(times):
                streams.append((*step, stream, name, *times))
    return steps, streams, average


def _step(path, line: int, cell: str) -> int:
    """The record's step number.

    :raises IngestError: naming the line when it is none.
    """
    try:
        return step_number(cell)
    except ValueError as exc:
        raise IngestError(f"{path}: line {line}: column 'step_num': {exc}") from None


def _step_times(path, line: int, row: list[str], plan) -> list[int | None]:
    """The record's points and phases in ns (``STEP_COLUMNS``).

    :raises IngestError: naming the line when a field does not convert or the step has no start or end.
    """
    times = convert_row(path, line, row, plan)
    if times[0] is None or times[1] is None:
        raise IngestError(f"{path}: line {line}: a step without its start_point or end_point")
    return times
