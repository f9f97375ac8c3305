"""Which of the databases Datasette serves are warehouses.

The plugin only decorates warehouses (a ``schema_migrations`` and a ``source`` table):
a user may serve other SQLite files in the same Datasette, and those keep their own
tables' names, documentation and queries. The answer is cached per file and
modification time, because Datasette asks for metadata many times per page.
"""

from __future__ import annotations

import sqlite3
from functools import lru_cache
from pathlib import Path

MARKER_TABLES = {"schema_migrations", "source"}


def is_warehouse(datasette, database: str | None) -> bool:
    """True if ``database`` (a name Datasette serves) is a file holding a warehouse."""
    return warehouse_columns(datasette, database) is not None


def warehouse_columns(datasette, database: str | None) -> tuple[tuple[str, tuple[str, ...]], ...] | None:
    """``(table, columns)`` for every table and view of ``database``, or None if it is not a
    warehouse. A tuple, so that what is derived from it can be cached by it."""
    db = datasette.databases.get(database) if database else None
    if db is None or db.is_memory or not db.path:
        return None
    if not db.is_mutable:
        return _inspect(db.path, 0)  # served immutable: the file does not change, no need to look
    try:
        modified = Path(db.path).stat().st_mtime_ns
    except OSError:
        return None
    return _inspect(db.path, modified)


def warehouse_names(datasette) -> list[str]:
    """The names of the served databases that are warehouses."""
    return [name for name in datasette.databases if is_warehouse(datasette, name)]


@lru_cache(maxsize=64)
def _inspect(path: str, modified_ns: int) -> tuple[tuple[str, tuple[str, ...]], ...] | None:
    try:
        conn = sqlite3.connect(f"{Path(path).as_uri()}?mode=ro", uri=True)
    except sqlite3.Error:
        return None
    try:
        names = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")]
        if not MARKER_TABLES <= set(names):
            return None
        return tuple((name, tuple(row[1] for row in conn.execute("SELECT * FROM pragma_table_info(?)", (name,))))
                     for name in names)
    except sqlite3.Error:
        return None  # not a SQLite file, or encrypted
    finally:
        conn.close()
