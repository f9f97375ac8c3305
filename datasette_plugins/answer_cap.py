"""The cap on one answer's bytes inside Datasette (``WAREHOUSE_MAX_ANSWER_BYTES``), as the REST API has it.

Datasette fetches up to ``max_returned_rows`` rows into memory before it encodes a page, and
SQLite's length limit bounds a value, not a page: 20,000 rows of 16 MB values would be 320 GB.
The rows of every query are counted as SQLite hands them over (Datasette's ``sqlite3.Row``
row factory, wrapped): past the cap the fetch fails with a one-line reason, which Datasette
shows as the query's error. A value too big for SQLite's heap (``WAREHOUSE_MAX_SQLITE_HEAP_BYTES``)
fails as ``MemoryError``: :func:`refusal` turns it into a one-line 413.
"""

from __future__ import annotations

import sqlite3
import weakref

#: bytes counted for a number or NULL (a JSON number's typical text)
SCALAR_BYTES = 8


class AnswerTooLarge(sqlite3.OperationalError):
    """An answer past ``WAREHOUSE_MAX_ANSWER_BYTES`` (a SQLite error, so Datasette shows it as the query's)."""


def count_rows(conn: sqlite3.Connection, max_bytes: int) -> None:
    """Give ``conn`` Datasette's ``sqlite3.Row`` rows, counting each query's bytes; past ``max_bytes`` the fetch fails."""
    counted = {"cursor": None, "bytes": 0}

    def row_factory(cursor: sqlite3.Cursor, values: tuple) -> sqlite3.Row:
        if counted["cursor"] is None or counted["cursor"]() is not cursor:  # a new query
            counted["cursor"], counted["bytes"] = weakref.ref(cursor), 0
        counted["bytes"] += sum(len(v) if isinstance(v, (str, bytes)) else SCALAR_BYTES for v in values)
        if counted["bytes"] > max_bytes:
            raise AnswerTooLarge(f"the answer is over the limit of {max_bytes} bytes (WAREHOUSE_MAX_ANSWER_BYTES): "
                                 "ask for fewer rows or smaller values")
        return sqlite3.Row(cursor, values)

    conn.row_factory = row_factory


def refusal(exception: BaseException) -> str | None:
    """The one-line reason for a query that ran out of SQLite's heap, or None for any other exception."""
    if isinstance(exception, MemoryError):
        return ("the answer does not fit in the memory SQLite may use (WAREHOUSE_MAX_SQLITE_HEAP_BYTES): "
                "ask for fewer or smaller values")
    return None
