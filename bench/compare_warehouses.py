"""Are two warehouses the same, table by table and row by row? (sqldiff-style, for before/after ingests.)

A change to an ingest path must leave the warehouse it writes unchanged. This compares every
table of the main schema (virtual tables' shadow tables left out: FTS5 lays out its index pages
by how the rows came) in primary-key order (rowid order for rowid tables), without the columns
that say when or how long (they differ between any two runs). Rows are streamed from both
files side by side, so a 10M-row warehouse takes no more memory than a small one.

    .venv/bin/python bench/compare_warehouses.py BEFORE.db AFTER.db

Prints one line per table (rows, and the first differing row when they differ) and exits 1 when
any table differs.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from itertools import zip_longest
from pathlib import Path

#: columns that hold when or how long
TIMING_COLUMNS = {"ingested_at", "elapsed_ns", "applied_at", "created_at"}
TABLES = ("SELECT name FROM pragma_table_list WHERE schema = 'main' AND type IN ('table', 'virtual') "
          "AND name NOT LIKE 'sqlite_%' ORDER BY name")


def shadow_tables(conn: sqlite3.Connection) -> set[str]:
    """The tables FTS5 keeps behind each virtual table (``<name>_data``, ``_idx``, ...)."""
    virtual = [row[0] for row in conn.execute("SELECT name FROM pragma_table_list WHERE type = 'virtual'")]
    return {f"{name}_{suffix}" for name in virtual for suffix in ("data", "idx", "content", "docsize", "config")}


def order_of(conn: sqlite3.Connection, table: str) -> str:
    """The primary key's columns (rowid for a rowid table), as an ORDER BY list."""
    without_rowid = conn.execute("SELECT wr FROM pragma_table_list WHERE name = ?", (table,)).fetchone()[0]
    if not without_rowid:
        return "rowid"
    key = sorted((row[5], row[1]) for row in conn.execute(f'PRAGMA table_info("{table}")') if row[5])
    return ", ".join(f'"{name}"' for _, name in key)


def rows(conn: sqlite3.Connection, table: str):
    columns = [row[1] for row in conn.execute(f'PRAGMA table_info("{table}")') if row[1] not in TIMING_COLUMNS]
    names = ", ".join(f'"{column}"' for column in columns)
    return conn.execute(f'SELECT {names} FROM "{table}" ORDER BY {order_of(conn, table)}')


def compare(before: Path, after: Path) -> list[str]:
    """One line per table; a line starting with ``DIFF`` for each table that differs."""
    old, new = sqlite3.connect(f"{before.resolve().as_uri()}?mode=ro", uri=True), sqlite3.connect(
        f"{after.resolve().as_uri()}?mode=ro", uri=True)
    try:
        skip = shadow_tables(old) | shadow_tables(new)
        tables_old = {row[0] for row in old.execute(TABLES)} - skip
        tables_new = {row[0] for row in new.execute(TABLES)} - skip
        lines = [f"DIFF {table}: only in {before}" for table in sorted(tables_old - tables_new)]
        lines += [f"DIFF {table}: only in {after}" for table in sorted(tables_new - tables_old)]
        for table in sorted(tables_old & tables_new):
            count, first = 0, None
            for count, (a, b) in enumerate(zip_longest(rows(old, table), rows(new, table)), start=1):
                if a != b and first is None:
                    first = f"row {count}: {a!r} != {b!r}"
            lines.append(f"DIFF {table}: {first}" if first else f"same {table}: {count:,} rows")
        return lines
    finally:
        old.close()
        new.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    options = parser.parse_args()
    lines = compare(options.before, options.after)
    print("\n".join(lines))
    sys.exit(1 if any(line.startswith("DIFF") for line in lines) else 0)


if __name__ == "__main__":
    main()
