"""Where one input's ingest spends its CPU: each SQL statement's, labelled by the table it writes.

Ingests one file (any source) into a fresh warehouse through a connection wrapper that adds up
``time.process_time`` around every ``execute`` and ``executemany`` and around each fetch of their
cursors, and around every statement of the DuckDB that reads a CSV export (labelled ``DuckDB ...``,
its making once per process apart), then prints the costliest labels and the Python outside SQL. ``--part`` ingests as a
worker of ``warehouse ingest --jobs N`` does: into a part whose secondary indexes are dropped;
``--merge`` then times the parent's half too, the copy of that part into a fresh warehouse
(:func:`warehouse.ingest.merge.merge_part` and its commit), as SQLite's ``INSERT ... SELECT`` with the
ids renumbered and the strings mapped.

The wrapper costs a timer pair per fetched row: a statement read row by row from Python (the
nesting pass) shows more than it costs unwrapped. Compare shares, and runs of the same command.

    .venv/bin/python bench/statement_costs.py INPUT [--part [--merge]] [--top 30] [--out /tmp/statement_costs.db]
"""

from __future__ import annotations

import argparse
import re
import time
from collections import Counter
from pathlib import Path

from warehouse import db, ingest
from warehouse.ingest.merge import merge_part
from warehouse.ingest.parts import drop_part_indexes
from warehouse.sources.kit import duck

#: the verb and table a statement writes, once its comment lines are gone
TARGET = re.compile(r"\b(INSERT(?: OR \w+)? INTO|UPDATE|DELETE FROM|CREATE TEMP (?:VIEW|TABLE)|CREATE TABLE|"
                    r"CREATE INDEX|DROP \w+ (?:IF EXISTS )?)\s*([\w.\"]+)", re.IGNORECASE)
COSTS: Counter[str] = Counter()


def label(sql: str) -> str:
    """``VERB table`` of a statement that writes, else its first 50 characters."""
    body = "\n".join(line for line in sql.splitlines() if not line.lstrip().startswith("--"))
    found = TARGET.search(body)
    return f"{found[1].upper()} {found[2]}" if found else " ".join(body.split())[:50]


def timed(key: str, call, *args):
    started = time.process_time()
    try:
        return call(*args)
    finally:
        COSTS[key] += time.process_time() - started


class TimedCursor:
    """A cursor whose fetches count for its statement's label (plus ' [fetch]')."""

    def __init__(self, cursor, key: str):
        self.cursor, self.key = cursor, key + " [fetch]"

    def __iter__(self):
        rows = iter(self.cursor)
        while (row := timed(self.key, next, rows, None)) is not None:
            yield row

    def fetchone(self):
        return timed(self.key, self.cursor.fetchone)

    def fetchall(self):
        return timed(self.key, self.cursor.fetchall)

    def fetchmany(self, size: int = 1):
        return timed(self.key, self.cursor.fetchmany, size)

    def __getattr__(self, name):
        return getattr(self.cursor, name)


class TimedConnection:
    """A sqlite3 connection whose statements are timed by label; everything else passes through."""

    def __init__(self, conn):
        self.conn = conn

    def execute(self, sql, *args):
        key = label(sql)
        return TimedCursor(timed(key, self.conn.execute, sql, *args), key)

    def executemany(self, sql, rows):
        return timed(label(sql), self.conn.executemany, sql, rows)

    def __getattr__(self, name):
        return getattr(self.conn, name)


class TimedDuck:
    """A DuckDB connection whose statements are timed by label (``DuckDB`` and the SQLite label)."""

    def __init__(self, engine):
        self.engine = engine

    def execute(self, sql, *args):
        return timed(f"DuckDB {label(sql)}", self.engine.execute, sql, *args)

    def __getattr__(self, name):
        return getattr(self.engine, name)


def timed_engines() -> None:
    """Time what the CSV exports' DuckDB does: its making (the sqlite extension loaded, the macros run;
    once per process) and its statements."""
    make = duck.engine

    def engine(macros):
        return TimedDuck(timed("DuckDB engine and macros (once per process)", make, macros))

    duck.engine = engine


def fresh(path: Path):
    """A new warehouse at ``path`` (an earlier run's removed)."""
    for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        leftover.unlink(missing_ok=True)
    return db.connect(path)


def report(what: str, total: float, top: int) -> None:
    """The costliest labels of ``what``, then its CPU in SQL and outside."""
    print(what)
    for key, seconds in COSTS.most_common(top):
        print(f"{seconds:8.3f}  {key}")
    in_sql = sum(COSTS.values())
    print(f"CPU {total:.2f} s: SQL {in_sql:.2f} s, Python outside SQL {total - in_sql:.2f} s")


def merge(part: Path, out: Path, top: int) -> None:
    """Time the parent's copy of ``part`` into a fresh warehouse at ``out``, statement by statement."""
    conn = fresh(out)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the migrations' pages: not the copy's to write
    conn.execute("ATTACH DATABASE ? AS made", (str(part),))
    source_id = conn.execute("INSERT INTO source SELECT * FROM made.source").lastrowid
    conn.execute("DETACH DATABASE made")
    COSTS.clear()
    started = time.process_time()
    conn.execute("BEGIN")
    merge_part(TimedConnection(conn), part, source_id)
    timed("COMMIT", conn.execute, "COMMIT")
    report(f"the part copied into {out}:", time.process_time() - started, top)
    conn.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("input", type=Path)
    parser.add_argument("--part", action="store_true", help="ingest as a worker does (part indexes dropped)")
    parser.add_argument("--merge", action="store_true", help="with --part: time the parent's copy of the part too")
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--out", type=Path, default=Path("/tmp/statement_costs.db"))
    args = parser.parse_args()
    timed_engines()
    conn = fresh(args.out)
    if args.part:
        drop_part_indexes(conn)
    started = time.process_time()
    result = ingest.ingest_file(TimedConnection(conn), args.input)
    total = time.process_time() - started
    conn.close()
    report(f"{args.input}: {result.status}, {result.rows:,} rows{', ' + result.error if result.error else ''}",
           total, args.top)
    if args.merge:
        merge(args.out, args.out.with_name(f"{args.out.stem}_merged.db"), args.top)


if __name__ == "__main__":
    main()
