"""The facts of an msprof timeline once its slices are in: kernels, HCCL operators and their tasks.

Each table's rows are one SQL file here, read from the source's slices (their process and thread
say which track they are on, their args the task's fields); the operators go in before their
tasks, which name the operator holding their start.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from warehouse import sqlfiles

HERE = Path(__file__).parent
#: table -> its statement, in the order they run
STATEMENTS = {table: sqlfiles.expand_includes(sqlfiles.text(HERE / f"{table}.sql"), HERE)
              for table in ("kernel", "communication_op", "communication_task")}


def insert_facts(conn: sqlite3.Connection, source_id: int, rank_id: int, device_id: int | None) -> dict[str, int]:
    """Insert the source's kernels, HCCL operators and tasks; returns the rows added per table."""
    params = {"source_id": source_id, "rank_id": rank_id, "device_id": device_id}
    added = {}
    for table, sql in STATEMENTS.items():
        before = conn.total_changes  # a statement starting with WITH reports no rowcount
        conn.execute(sql, params)
        added[table] = conn.total_changes - before
    return added
