"""What is derived from the inputs' rows, kept true as inputs come and go.

Ranks need nothing here: ``rank`` is a view over the inputs. A run's facts (start, profiler)
are refreshed after each input; findings drawn from an input's rows are dropped when those
rows are replaced, so no finding ever points at a deleted slice or kernel.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from warehouse.analysis.classify import split_statements

HERE = Path(__file__).parent
RUN_FACTS_SQL = (HERE / "run_facts.sql").read_text(encoding="utf-8")
FORGET_SOURCE_SQL = split_statements((HERE / "forget_source.sql").read_text(encoding="utf-8"))


def after_source(conn: sqlite3.Connection, source_id: int) -> None:
    """Refresh the facts of the run ``source_id`` joined (inside the caller's transaction)."""
    conn.execute(RUN_FACTS_SQL, {"source_id": source_id})


def forget_source(conn: sqlite3.Connection, source_id: int) -> None:
    """Drop what was derived from ``source_id``'s rows, before they are deleted."""
    for statement in FORGET_SOURCE_SQL:
        conn.execute(statement, {"source_id": source_id})
