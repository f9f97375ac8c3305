"""step_trace_*.csv: the iterations of an msprof (CANN) export, one per record.

msprof writes it beside op_summary_*.csv (``PROF_*/mindstudio_profiler_output/``, older releases
``PROF_*/device_{N}/summary/``) from the same iterations as the timeline's ``step_trace_*.json``:
``Device_id`` (newer releases), ``Iteration ID``, ``FP Start(us)``, ``BP End(us)``,
``Iteration End(us)``, ``Iteration Time(us)`` (epoch us, a TAB after each), ``FP to BP Time(us)``,
``Iteration Refresh(us)``, ``Data Aug Bound(us)``, ``Model ID``, then a ``Reduce Start(us)`` /
``Reduce Duration(us)`` pair per all-reduce of the iteration. Each record is one ``step`` row: the
iteration ends at its Iteration End and starts its Iteration Time before.
"""

from __future__ import annotations

from pathlib import Path

from warehouse.errors import IngestError
from warehouse.sources.base import Outcome
from warehouse.sources.kit import multirow
from warehouse.sources.kit.rank_layout import rank_or_unknown
from warehouse.sources.kit.text import Column, column_plan, convert_row, has_headers, insert_sql, integer, \
    open_records, us_to_ns

KIND = "msprof_step_trace_csv"
COLUMNS = (
    Column("step_id", ("Iteration ID",), integer),
    Column("end_ns", ("Iteration End(us)",), us_to_ns),
    Column("duration_ns", ("Iteration Time(us)",), us_to_ns),
)
REQUIRED = frozenset(column.headers[0] for column in COLUMNS)
INSERT = insert_sql("step", ["rank_id", "step_id", "start_ns", "end_ns", "source_id"])


def detect(path) -> bool:
    """A CSV whose header has msprof's iteration columns."""
    return has_headers(path, REQUIRED)


def ingest(conn, path: str | Path, source_id: int) -> Outcome:
    """Insert one ``step`` row per record.

    :raises IngestError: naming the line of a short record, or of an iteration without a whole
        Iteration ID, an Iteration End or an Iteration Time, or whose start is before the epoch.
    """
    layout = rank_or_unknown(path)
    rows = []
    with open_records(path) as records:
        plan = column_plan(records.header, COLUMNS)
        for _, line, row, short in records:
            if short:
                raise IngestError(f"{path}: line {line}: {len(row)} fields for a header of {len(records.header)}")
            step, end, duration = convert_row(path, line, row, plan)
            if step is None or end is None or duration is None:
                raise IngestError(f"{path}: line {line}: an iteration without its Iteration ID, Iteration End(us) "
                                  "or Iteration Time(us)")
            if duration < 0 or duration > end:
                raise IngestError(f"{path}: line {line}: an Iteration Time(us) longer than its Iteration End(us) "
                                  "or negative")
            rows.append((layout.rank, step, end - duration, end, source_id))
    multirow.insert_rows(conn, INSERT, rows)
    return Outcome(rows=len(rows), rank_id=layout.rank, device_id=layout.device_id, detail={"table": "step"})
