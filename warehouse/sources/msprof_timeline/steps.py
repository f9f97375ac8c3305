"""The iterations of msprof's ``step_trace_*.json`` as ``step`` rows.

Each "Iteration Time" event (``ph`` X) is one iteration: its ``Iteration ID`` the step number,
its ``ts`` and ``dur`` (us of the device's monotonic clock) the step's start and end. The file is
small (a few events per iteration) and is read whole.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from warehouse.errors import IngestError
from warehouse.sources.base import open_binary
from warehouse.sources.kit import multirow
from warehouse.sources.kit.numbers import INT64_MAX, INT64_MIN
from warehouse.sources.trace_json.events import to_ns

ITERATION = "Iteration Time"
INSERT = "INSERT INTO step (rank_id, step_id, start_ns, end_ns, source_id) VALUES (?, ?, ?, ?, ?)"


def insert_steps(conn: sqlite3.Connection, path: Path, source_id: int, rank_id: int, offset_ns: int) -> int:
    """Insert one ``step`` row per iteration of the file, its times plus ``offset_ns``; returns the count.

    :raises IngestError: naming the file and the event when it is not a list of events, or an
        iteration has no whole ``Iteration ID`` or no number for ``ts`` or ``dur``.
    """
    with open_binary(path) as stream:
        try:
            events = json.loads(stream.read().decode("utf-8"))
        except (ValueError, RecursionError) as exc:
            raise IngestError(f"{path}: not JSON ({exc})") from None
    if not isinstance(events, list):
        raise IngestError(f"{path}: not a list of trace events")
    rows = [_step(path, index, event, rank_id, offset_ns, source_id)
            for index, event in enumerate(events)
            if isinstance(event, dict) and event.get("ph") == "X" and event.get("cat") == ITERATION]
    multirow.insert_rows(conn, INSERT, rows)
    return len(rows)


def _step(path: Path, index: int, event: dict, rank_id: int, offset_ns: int, source_id: int) -> tuple:
    """One iteration event's step row."""
    args = event.get("args")
    step = args.get("Iteration ID") if isinstance(args, dict) else None
    if not isinstance(step, int) or isinstance(step, bool) or not INT64_MIN <= step <= INT64_MAX:
        raise IngestError(f"{path}: event {index}: an iteration without a whole 'Iteration ID' within 64 bits")
    start = to_ns(event.get("ts"), str(path), index, "ts") + offset_ns
    return rank_id, step, start, start + to_ns(event.get("dur"), str(path), index, "dur"), source_id
