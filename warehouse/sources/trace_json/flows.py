"""Flows: the flow events (s/t/f) wait in a staging table until every slice is in, then pair into arrows.

The staging tables (the events as read, then bound to their slices) live in a scratch
database of its own, attached as ``trace_flows``: a file deleted as soon as it is opened
(SQLite keeps its descriptor), with an in-memory rollback journal. Its pages never go through
the warehouse's WAL or page cache, nothing is left to drop before the commit, and a crash
leaves nothing behind. The ingest frame detaches it after the file's transaction; a
connection without the frame keeps it attached and reuses it for the next trace.
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
    """Empty staging tables in ``trace_flows``, attaching the scratch database if need be."""
    if not any(row[1] == SCHEMA for row in conn.execute("PRAGMA database_list")):
        handle, path = tempfile.mkstemp(prefix="warehouse-trace-flows-", suffix=".db")
        os.close(handle)
        try:
            conn.execute(f"ATTACH DATABASE ? AS {SCHEMA}", (path,))
            conn.execute(f"PRAGMA {SCHEMA}.journal_mode = MEMORY")
            conn.execute(f"PRAGMA {SCHEMA}.cache_size = -8192")
        finally:
            os.unlink(path)
    for statement in sqlfiles.statements(SQL_DIR / "flow_event_table.sql"):
        conn.execute(statement)
    conn.execute(f"DELETE FROM {SCHEMA}._trace_flow_event")
    conn.execute(f"DELETE FROM {SCHEMA}._trace_flow_bound")


def insert_flows(conn: sqlite3.Connection, source_id: int) -> int:
    """Bind the flow events of the trace just read to slices and pair them into arrows; returns the number of flows.

    Both steps run inside SQLite: no flow event passes through Python.
    """
    conn.execute(sqlfiles.text(SQL_DIR / "flow_events.sql"))
    return pair(conn, source_id)


def pair(conn: sqlite3.Connection, source_id: int) -> int:
    """Pair the bound flow events (``trace_flows._trace_flow_bound``) into ``flow`` rows; returns how many.

    Per (category, flow_key), in time order, an ``s`` starts a chain; every later ``t``/``f``
    gets an arrow from the chain's latest ``s``/``t``, and a ``t`` becomes the latest; events
    before the first ``s`` or bound to no slice make no arrow (pair_flows.sql). Each arrow
    keeps its two events' own times (``ts_out``, ``ts_in``) beside the slices they bind to.
    """
    return conn.execute(sqlfiles.text(SQL_DIR / "pair_flows.sql"), {"source_id": source_id}).rowcount
