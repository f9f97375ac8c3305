"""Many rows per INSERT: one ``INSERT ... VALUES (...), (...), ...`` statement binds a block of rows.

``sqlite3.Cursor.executemany`` runs its statement once per row, with the module's per-row work
(reset, bind, step, change count) around each step; a statement of a block of rows binds the same
values and steps once. For the 647,656 slices of a 1M-event trace into the indexed ``_slice``:
2.20 -> 1.53-1.67 s of CPU (best of 6 turns each, bench/RESULTS.md).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from functools import lru_cache
from itertools import chain, islice

#: rows bound by one statement (fewer when a row has many parameters: SQLite's variable limit)
ROWS_PER_STATEMENT = 500


def insert_rows(conn: sqlite3.Connection, sql: str, rows: Iterable[tuple]) -> None:
    """Run ``sql``, an ``INSERT ... VALUES (row)`` whose row holds one ``?`` per value (expressions
    around them allowed, no ``?`` in a literal), for every row of ``rows``, in order. ``rows`` is
    read a block at a time: a generator stays one."""
    block, blocked = _blocked(sql, conn.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER))
    rows = iter(rows)
    while some := list(islice(rows, block)):
        if len(some) == block:
            conn.execute(blocked, list(chain.from_iterable(some)))
        else:
            conn.executemany(sql, some)


@lru_cache(maxsize=32)
def _blocked(sql: str, variable_limit: int) -> tuple[int, str]:
    """Rows per block and the statement of one block."""
    head, values, row = sql.partition(" VALUES ")
    if not values or not row.startswith("(") or not row.endswith(")"):
        raise ValueError(f"not an INSERT ... VALUES (row) statement: {sql[:80]!r}")
    block = max(1, min(ROWS_PER_STATEMENT, variable_limit // max(1, row.count("?"))))
    return block, f"{head} VALUES {', '.join([row] * block)}"
