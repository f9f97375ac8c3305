"""What a warehouse's schema holds: its tables, their columns and references, read with sqlite-utils.

Deleting an input's rows, auditing every table an input writes, and copying a part into the
warehouse all ask the schema the same questions ("which tables have a ``source_id``?", "which
table does this column reference?"); they ask them here, so a table added by a later
migration is found by all of them without a list to keep up to date.
"""

from __future__ import annotations

import sqlite3

import sqlite_utils


def tables_with_column(conn: sqlite3.Connection, column: str) -> dict[str, list[str]]:
    """The tables (not views) of the main schema having ``column``, each with its columns in order,
    in the order the schema created them."""
    database = sqlite_utils.Database(conn)
    found = {}
    for name in database.table_names():
        columns = [c.name for c in database.table(name).columns]
        if column in columns:
            found[name] = columns
    return found


def references(conn: sqlite3.Connection, table: str) -> dict[str, str]:
    """``column -> referenced table`` for the columns of ``table`` holding another table's ids: the
    foreign keys it declares and its rows of ``column_reference`` (migration 0014: the references
    SQLite could not declare on a table that already existed)."""
    database = sqlite_utils.Database(conn)
    found = {key.column: key.other_table for key in database.table(table).foreign_keys}
    if database.table("column_reference").exists():
        found.update(conn.execute("SELECT column_name, referenced_table FROM main.column_reference "
                                  "WHERE table_name = ?", (table,)).fetchall())
    return found
