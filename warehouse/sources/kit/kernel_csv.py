"""Reading a kernel table exported as CSV (kernel_details.csv, op_summary_*.csv) into ``kernel``.

Both exports list one device kernel per record with the same fields under different
header names (``Name`` / ``Op Name``, ``Duration(us)`` / ``Task Duration(us)``, ...), and
a set of metric columns that depends on the ``aic_metrics`` mode of the run. Known
columns go to their ``kernel`` column (us -> ns exactly); any other metric column goes
to ``kernel.metrics`` as a JSON object keyed by its header. The rows are then classified.
"""

from __future__ import annotations

import json
import sqlite3

from warehouse.sources.kit import multirow
from warehouse.sources.base import Outcome
from warehouse.sources.kit.rank_layout import rank_or_unknown
from warehouse.sources.kit.text import (
    Column,
    column_plan,
    convert_row,
    insert_sql,
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
    Column("task_id", ("Task ID",), integer),
    Column("stream_id", ("Stream ID",), integer),
    Column("name", ("Name", "Op Name")),
    Column("op_type", ("Type", "OP Type")),
    Column("op_state", ("OP State",)),
    Column("accelerator_core", ("Accelerator Core",)),
    Column("task_type", ("Task Type",)),
    Column("ts", ("Start Time(us)", "Task Start Time(us)"), us_to_ns),
    Column("dur", ("Duration(us)", "Task Duration(us)"), us_to_ns),
    Column("wait_ns", ("Wait Time(us)", "Task Wait Time(us)"), us_to_ns),
    Column("block_dim", ("Block Dim",), integer),
    Column("mix_block_dim", ("Mix Block Dim",), integer),
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
KNOWN_HEADERS = frozenset(header for column in KERNEL_COLUMNS for header in column.headers)
INSERT = insert_sql(
    "kernel", ["source_id", "source_row", "origin", "rank_id", *(c.name for c in KERNEL_COLUMNS), "metrics"]
)


def ingest_kernels(conn: sqlite3.Connection, path, source_id: int, origin: str) -> Outcome:
    """Insert every record of a kernel CSV as a ``kernel`` row of ``origin``, then classify them."""
    rank_id = rank_or_unknown(path).rank
    with open_records(path) as records:
        plan = column_plan(records.header, KERNEL_COLUMNS)
        extra = [(index, name) for index, name in enumerate(records.header) if name not in KNOWN_HEADERS]
        rows = (
            (source_id, number, origin, rank_id, *convert_row(path, line, row, plan, short),
             _metrics(row, extra, short))
            for number, line, row, short in records
        )
        before = conn.total_changes
        multirow.insert_rows(conn, INSERT, rows)
        count = conn.total_changes - before
    detail = {"table": "kernel", "origin": origin, **short_record_note(records.short_lines)}
    return Outcome(rows=count, rank_id=rank_id, detail=detail)


def _metrics(row: list[str], extra: list[tuple[int, str]], short: bool) -> str | None:
    """The fields of unknown columns as a JSON object (None when none has a value); a short
    record, whose fields are shifted, keeps its raw fields instead under ``_short_record``."""
    if short:
        return json.dumps({"_short_record": row})
    values = {name: scalar(row[index]) for index, name in extra if index < len(row)}
    values = {name: value for name, value in values.items() if value is not None}
    return json.dumps(values) if values else None
