"""Copy a *part* into the warehouse: the rows one file's ingest wrote into a scratch warehouse.

A worker process ingests a file into a fresh warehouse of its own (the part) while the
parent process writes others (see :mod:`warehouse.ingest.parts`); the parent then copies the part
with one ``INSERT ... SELECT`` per table, inside the file's transaction. Ids are renumbered
to follow the warehouse's: each table's ids are shifted past its current largest id (with
every column that points at them), strings are mapped by value, and ``source_id`` becomes
the file's source here (as does ``input_source_id`` of the part's ``name_use``, the names its
rows use). The result is row for row what ingesting the file in the parent would have written,
at SQLite's copy speed.

The statements are built from the schema (every table with a ``source_id`` column, its
columns and foreign keys), so a new migration's tables are copied without a change here;
columns that hold ids without a foreign key clause are declared in the schema's ``column_reference``
table (migration 0014; :func:`warehouse.introspect.references` reads both).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from warehouse import introspect, sqlfiles
from warehouse.model.classify import load_rules
from warehouse.sources.base import Outcome, attach_readonly

SCHEMA = "part"
HERE = Path(__file__).parent
STRINGS_STATEMENTS = sqlfiles.statements(HERE / "merge_strings.sql")
NAME_USE_SQL = sqlfiles.text(HERE / "merge_name_use.sql")

#: tables with a source_id that are not copied row by row (the file's source row is the caller's)
SPECIAL_TABLES = ("source",)


def merge_part(conn: sqlite3.Connection, part_path: Path, source_id: int) -> Outcome:
    """Copy the part at ``part_path`` into the warehouse as the rows of ``source_id``.

    Runs inside the caller's transaction; the part is attached read-only (the caller
    detaches it after its COMMIT or ROLLBACK). Returns the part's outcome.
    """
    attach_readonly(conn, part_path, SCHEMA)  # the worker is done with it: nothing writes it again
    rows, rank_id, device_id, host_name, card, detail = conn.execute(
        f"SELECT row_count, rank_id, device_id, host_name, card, detail FROM {SCHEMA}.source WHERE status = 'ok'"
    ).fetchone()
    for statement in STRINGS_STATEMENTS:
        conn.execute(statement)
    copied = copied_tables(conn)
    offsets = {table: _largest_id(conn, table) for table, columns in copied.items() if "id" in columns}
    for table, columns in copied.items():
        conn.execute(copy_statement(conn, table, columns, offsets), {"source_id": source_id})
    conn.execute(NAME_USE_SQL, {"source_id": source_id})  # derived, so keyed by input_source_id: not copied above
    conn.execute("DROP TABLE temp.merge_string")
    if conn.execute(f"SELECT 1 FROM {SCHEMA}.kernel_signature LIMIT 1").fetchone():
        load_rules(conn)  # the rules the part's kernels were classified with, as classify_source keeps them
    return Outcome(rows, rank_id=rank_id, device_id=device_id, host_name=host_name, card=card,
                   detail=json.loads(detail) if detail else {})


def copied_tables(conn: sqlite3.Connection) -> dict[str, list[str]]:
    """Every table a source writes (it has a source_id column), with its columns, in schema order."""
    return {table: columns for table, columns in introspect.tables_with_column(conn, "source_id").items()
            if table not in SPECIAL_TABLES}


def _largest_id(conn: sqlite3.Connection, table: str) -> int:
    return conn.execute(f'SELECT COALESCE(MAX(id), 0) FROM main."{table}"').fetchone()[0]


def copy_statement(conn: sqlite3.Connection, table: str, columns: list[str], offsets: dict[str, int], *,
                   source_id: str = ":source_id", rowid_offset: int | None = None) -> str:
    """``INSERT INTO main.table ... SELECT ... FROM part.table``: ids shifted by ``offsets`` (per
    referenced table), strings mapped through ``temp.merge_string``, ``source_id`` set to the SQL
    expression ``source_id`` (the one file's parameter by default); with ``rowid_offset``, the hidden
    rowid of a table without an INTEGER PRIMARY KEY is kept, shifted by it."""
    references = {(table, column): target for column, target in introspect.references(conn, table).items()}
    values = []
    for column in columns:
        target = table if column == "id" else references.get((table, column))
        if column == "source_id":
            values.append(source_id)
        elif target == "string":
            values.append(f'(SELECT string_id FROM temp.merge_string WHERE part_id = p."{column}")')
        elif target in offsets:
            values.append(f'p."{column}" + {offsets[target]}')
        else:
            values.append(f'p."{column}"')
    names = ", ".join(f'"{column}"' for column in columns)
    if rowid_offset is not None:
        names, values = f"rowid, {names}", [f"p.rowid + {rowid_offset}", *values]
    return f'INSERT INTO main."{table}" ({names}) SELECT {", ".join(values)} FROM {SCHEMA}."{table}" AS p ORDER BY p.rowid'
