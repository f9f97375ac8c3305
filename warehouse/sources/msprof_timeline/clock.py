"""The clock of a PROF folder's device: its timeline's monotonic times mapped to ns since the epoch.

The device's ``start_info.{N}`` states the same instant on both clocks: ``collectionTimeBegin``
(us since the epoch) and ``clockMonotonicRaw`` (ns of the monotonic clock the timeline's times
are on). The offset between them takes a timeline time to the epoch, as the run's other exports
(its db, its CSVs) write their times.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from warehouse import sqlfiles
from warehouse.model import folder_grammar as grammar
from warehouse.sources.kit.numbers import whole
from warehouse.sources.kit.rank_layout import read_sidecar

SHIFT_SQL = sqlfiles.statements(Path(__file__).parent / "shift.sql")


def epoch_offset_ns(device_folder: Path) -> int | None:
    """ns to add to a monotonic time of ``device_folder``'s timeline to get ns since the epoch;
    None when its start_info is missing or does not give both times as whole numbers."""
    info = grammar.start_info(device_folder)
    fields = read_sidecar(info) if info is not None else {}
    try:
        return whole(str(fields["collectionTimeBegin"])) * 1000 - whole(str(fields["clockMonotonicRaw"]))
    except (KeyError, TypeError, ValueError):
        return None


def shift_source(conn: sqlite3.Connection, source_id: int, offset_ns: int) -> None:
    """Add ``offset_ns`` to every time the source's timeline rows hold (slices, counters, flows)."""
    if offset_ns:
        for statement in SHIFT_SQL:
            conn.execute(statement, {"source_id": source_id, "offset_ns": offset_ns})
