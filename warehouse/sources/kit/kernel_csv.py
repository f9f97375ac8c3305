"""Reading a kernel table exported as CSV (kernel_details.csv, op_summary_*.csv, task_time_*.csv) into ``kernel``.

The exports list one device kernel (task_time: one device task) per record with the same fields
under different header names (``Name`` / ``Op Name`` / ``kernel_name``, ``Duration(us)`` /
``Task Duration(us)`` / ``task_time(us)``, ``Block Dim`` / ``Block Num``, ...), and
a set of metric columns that depends on the ``aic_metrics`` mode of the run. Known
columns go to their ``kernel`` column (us -> ns exactly); any other metric column goes
to ``kernel.metrics`` as a JSON object keyed by its header. The rows are classified as they are
copied into ``kernel`` (:func:`warehouse.model.classify.classify_rows`), not updated after.

The file is read and converted by DuckDB, as every CSV export is (:mod:`warehouse.sources.kit.csv_bulk`),
not record by record in Python: a GB export is millions of records.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable

from warehouse.model import derived
from warehouse.model.classify import CLASS_COLUMNS, classify_rows
from warehouse.sources.base import Outcome
from warehouse.sources.kit.csv_bulk import SCRATCH_SCHEMA, Extra, converted
from warehouse.sources.kit.rank_layout import rank_or_unknown
from warehouse.sources.kit.text import (
    Column,
    column_plan,
    has_headers,
    integer,
    open_records,
    real,
    scalar,
    short_record_note,
    us_to_ns,
)


def _stage(prefix: str, *stages: str) -> tuple[Column, ...]:
    """The time (us -> ns) and ratio columns of pipeline stages, e.g. aic_mac_time(us), aic_mac_ratio."""
    columns = []
    for stage in stages:
        columns.append(Column(f"{prefix}_{stage}_ns", (f"{prefix}_{stage}_time(us)",), us_to_ns))
        columns.append(Column(f"{prefix}_{stage}_ratio", (f"{prefix}_{stage}_ratio",), real))
    return tuple(columns)


KERNEL_COLUMNS: tuple[Column, ...] = (
    Column("device_id", ("Device_id", "Device Id"), integer),
    Column("step_id", ("Step Id",), integer),
    Column("model_id", ("Model ID",), integer),
    Column("task_id", ("Task ID", "task_id"), integer),
    Column("stream_id", ("Stream ID", "stream_id"), integer),
    Column("name", ("Name", "Op Name", "kernel_name")),
    Column("op_type", ("Type", "OP Type")),
    Column("op_state", ("OP State",)),
    Column("accelerator_core", ("Accelerator Core",)),
    Column("task_type", ("Task Type", "kernel_type")),
    Column("ts", ("Start Time(us)", "Task Start Time(us)", "task_start(us)"), us_to_ns),
    Column("dur", ("Duration(us)", "Task Duration(us)", "task_time(us)"), us_to_ns),
    Column("wait_ns", ("Wait Time(us)", "Task Wait Time(us)"), us_to_ns),
    # msprof's op_summary names them Block Num and Mix Block Num since CANN renamed blockDim blockNum
    Column("block_dim", ("Block Dim", "Block Num"), integer),
    Column("mix_block_dim", ("Mix Block Dim", "Mix Block Num"), integer),
    Column("hf32_eligible", ("HF32 Eligible",)),
    Column("input_shapes", ("Input Shapes",)),
    Column("input_dtypes", ("Input Data Types",)),
    Column("input_formats", ("Input Formats",)),
    Column("output_shapes", ("Output Shapes",)),
    Column("output_dtypes", ("Output Data Types",)),
    Column("output_formats", ("Output Formats",)),
    Column("context_id", ("Context ID",), integer),
    Column("aicore_ns", ("aicore_time(us)",), us_to_ns),
    Column("aic_total_cycles", ("aic_total_cycles",), integer),
    *_stage("aic", "mac", "scalar", "mte1", "mte2", "fixpipe"),
    Column("aic_icache_miss_rate", ("aic_icache_miss_rate",), real),
    Column("aiv_ns", ("aiv_time(us)",), us_to_ns),
    Column("aiv_total_cycles", ("aiv_total_cycles",), integer),
    *_stage("aiv", "vec", "scalar", "mte2", "mte3"),
    Column("aiv_icache_miss_rate", ("aiv_icache_miss_rate",), real),
    Column("cube_utilization_pct", ("cube_utilization(%)",), real),
)
#: task_time's end, which its start and duration give, is no metric
KNOWN_HEADERS = frozenset(header for column in KERNEL_COLUMNS for header in column.headers) | {"task_stop(us)"}


def kernel_source(kind: str, required: frozenset[str]) -> tuple[Callable[[object], bool], Callable[..., Outcome]]:
    """The ``detect`` and ``ingest`` functions of a source module reading one kernel CSV export: a file
    whose header has the ``required`` names, its rows ``kernel`` rows of origin ``kind``."""

    def detect(path) -> bool:
        return has_headers(path, required)

    def ingest(conn: sqlite3.Connection, path, source_id: int) -> Outcome:
        return ingest_kernels(conn, path, source_id, kind)

    return detect, ingest


def ingest_kernels(conn: sqlite3.Connection, path, source_id: int, origin: str) -> Outcome:
    """Insert every record of a kernel CSV as a ``kernel`` row of ``origin``, then classify them.

    :raises IngestError: naming the file and line, as the record reader of text.py words it.
    """
    rank_id = rank_or_unknown(path).rank
    with open_records(path) as records:
        header = records.header
    plan = column_plan(header, KERNEL_COLUMNS)
    with converted(conn, path, header, plan, _metrics(header)) as read:
        params = {"source_id": source_id, "origin": origin, "rank_id": rank_id}
        classify_rows(conn, SCRATCH_ROWS, COPY, params)
        derived.note_kernel_names(conn, source_id, SCRATCH_ROWS, params)
    detail = {"table": "kernel", "origin": origin, **short_record_note(read.short_lines)}
    return Outcome(rows=read.count, rank_id=rank_id, detail=detail, kernels_classified=True)


#: the scratch rows (:func:`converted`'s, ``v0``, ``v1``, ... in KERNEL_COLUMNS' order) as kernel rows
SCRATCH_ROWS = (f"SELECT :source_id AS source_id, rowid AS source_row, :origin AS origin, :rank_id AS rank_id, "
                f"{', '.join(f'v{position} AS {column.name}' for position, column in enumerate(KERNEL_COLUMNS))}, "
                f"extra AS metrics, NULL AS slice_id FROM {SCRATCH_SCHEMA}.rows")
#: the copy of the classified scratch rows into ``kernel``, in file order: each row written once, with its class
_COPIED = ("source_id", "source_row", "origin", "rank_id", *(column.name for column in KERNEL_COLUMNS), "metrics",
           *CLASS_COLUMNS)
COPY = (f"INSERT INTO kernel ({', '.join(_COPIED)}) "
        f"SELECT {', '.join(_COPIED)} FROM kernel_class ORDER BY source_row")


def _metrics(header: list[str]) -> Extra:
    """The ``metrics`` column, as Python's json writes it: the fields of unknown columns (only files with
    such columns call it), a short record's raw fields (only short records call it)."""
    extra = [name for name in header if name not in KNOWN_HEADERS]
    fields = [f"f{index}" for index in range(len(header))]
    unknown = [f"f{index}" for index, name in enumerate(header) if name not in KNOWN_HEADERS]

    def metrics_json(cells: list[str]) -> str | None:
        values = {name: scalar(value) for name, value in zip(extra, cells)}
        values = {name: value for name, value in values.items() if value is not None}
        return json.dumps(values) if values else None

    def short_json(cells: list[str | None]) -> str:
        return json.dumps({"_short_record": [value for value in cells if value is not None]})

    metrics = "metrics_json([" + ", ".join(unknown) + "])" if unknown else "NULL"
    return Extra(f"CASE WHEN short THEN short_json([{', '.join(fields)}]) ELSE {metrics} END",
                 {"metrics_json": metrics_json, "short_json": short_json})
