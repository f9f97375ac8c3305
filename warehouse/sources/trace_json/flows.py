"""Flows: the flow events (s/t/f) wait in a staging table until every slice is in, then pair into arrows.

The staging table lives in a scratch database of its own, attached as ``trace_flows``: a file
deleted as soon as it is opened (SQLite keeps its descriptor), with an in-memory rollback
journal. Its pages never go through the warehouse's WAL or page cache, nothing
is left to drop before the commit, and a crash leaves nothing behind. The ingest frame
detaches it after the file's transaction; a connection without the frame keeps it attached
and reuses it for the next trace.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
from pathlib import Path

from warehouse import sqlfiles

SQL_DIR = Path(__file__).parent
#: the schema name of the scratch database
SCHEMA = "trace_flows"
#: one row of the staging table, as the loader builds it
EVENT_INSERT = (f"INSERT INTO {SCHEMA}._trace_flow_event (category, flow_key, phase, thread_id, ts, enclosing, "
                "name, source_row) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
#: the flow phases and their order at equal ts
PHASES = {"s": 0, "t": 1, "f": 2}


def create_staging(conn: sqlite3.Connection) -> None:
    """An empty ``trace_flows._trace_flow_event`` table, attaching the scratch database if need be."""
    if not any(row[1] == SCHEMA for row in conn.execute("PRAGMA database_list")):
        handle, path = tempfile.mkstemp(prefix="warehouse-trace-flows-", suffix=".db")
        os.close(handle)
        try:
            conn.execute(f"ATTACH DATABASE ? AS {SCHEMA}", (path,))
            conn.execute(f"PRAGMA {SCHEMA}.journal_mode = MEMORY")
            conn.execute(f"PRAGMA {SCHEMA}.cache_size = -8192")
        finally:
            os.unlink(path)
    conn.execute(sqlfiles.text(SQL_DIR / "flow_event_table.sql"))
    conn.execute(f"DELETE FROM {SCHEMA}._trace_flow_event")


def insert_flows(conn: sqlite3.Connection, source_id: int) -> int:
    """Pair the flow events of the trace just read into arrows; returns the number of flows.

    flow_events.sql binds every event to a slice and sorts them by (category, flow_key, ts).
    Per key, an ``s`` starts a chain; every later ``t``/``f`` gets an arrow from the chain's
    latest ``s``/``t``; events before the first ``s`` or bound to no slice make no arrow. Each
    arrow keeps its two events' own times (``ts_out``, ``ts_in``) beside the slices they bind to.
    """
    flows = []
    total = 0
    key = None
    started = False  # an s of this key was seen
    source = source_name = source_ts = None  # the slice (name, ts) of the chain's latest s or t
    for category, flow_key, phase, name, ts, slice_id in conn.execute(sqlfiles.text(SQL_DIR / "flow_events.sql")):
        if (category, flow_key) != key:
            key, started, source, source_name, source_ts = (category, flow_key), False, None, None, None
        if phase == 0:
            started, source, source_name, source_ts = True, slice_id, name, ts
            continue
        if not started:
            continue
        if source is not None and slice_id is not None:
            flows.append((source_id, source, slice_id, source_name or name, category or None, flow_key, source_ts, ts))
        if phase == 1:
            source, source_name, source_ts = slice_id, name, ts
        if len(flows) >= 65536:
            total += _write_flows(conn, flows)
            flows = []
    return total + _write_flows(conn, flows)


def _write_flows(conn: sqlite3.Connection, flows: list) -> int:
    conn.executemany("INSERT INTO flow (source_id, slice_out, slice_in, name, category, flow_key, ts_out, ts_in) "
                     "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", flows)
    return len(flows)
