"""Where one input's ingest spends its CPU: each SQL statement's, labelled by the table it writes.

Ingests one file (any source) into a fresh warehouse through a connection wrapper that adds up
``time.process_time`` around every ``execute`` and ``executemany`` and around each fetch of their
cursors, then prints the costliest labels and the Python outside SQL. ``--part`` ingests as a
worker of ``warehouse ingest --jobs N`` does: into a part whose secondary indexes are dropped.

The wrapper costs a timer pair per fetched row: a statement read row by row from Python (the
nesting pass) shows more than it costs unwrapped. Compare shares, and runs of the same command.

    .venv/bin/python bench/statement_costs.py INPUT [--part] [--top 30] [--out /tmp/statement_costs.db]
"""

from __future__ import annotations

import argparse
import re
import time
from collections import Counter
from pathlib import Path

from warehouse import db, ingest
from warehouse.ingest.parts import drop_part_indexes

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("input", type=Path)
    parser.add_argument("--part", action="store_true", help="ingest as a worker does (part indexes dropped)")
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--out", type=Path, default=Path("/tmp/statement_costs.db"))
    args = parser.parse_args()
    for leftover in (args.out, Path(f"{args.out}-wal"), Path(f"{args.out}-shm")):
        leftover.unlink(missing_ok=True)
    conn = db.connect(args.out)
    if args.part:
        drop_part_indexes(conn)
    started = time.process_time()
    result = ingest.ingest_file(TimedConnection(conn), args.input)
    total = time.process_time() - started
    print(f"{args.input}: {result.status}, {result.rows:,} rows{', ' + result.error if result.error else ''}")
    for key, seconds in COSTS.most_common(args.top):
        print(f"{seconds:8.3f}  {key}")
    in_sql = sum(COSTS.values())
    print(f"CPU {total:.2f} s: SQL {in_sql:.2f} s, Python outside SQL {total - in_sql:.2f} s")


if __name__ == "__main__":
    main()
