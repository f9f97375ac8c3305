"""The floor of an ingest: SQLite's own ``ATTACH`` + ``INSERT ... SELECT`` of the rows it wrote.

Whatever reads an input, its rows end in the warehouse's tables with their indexes, triggers
and commit; copying the rows an ingest wrote from its warehouse into a fresh one, table by
table in key order, is what writing them costs with nothing read or converted. The benchmarks
quote an ingest's CPU against this one's on the same rows (bench/text_exports.py,
bench/issue36_targets.py).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from pathlib import Path

from compare_warehouses import order_of

from warehouse import db

#: rows of the frame (one per input) and of the migrations: not the input's
NOT_COPIED = ("source", "schema_migrations")


def copy_rows(ingested: Path, fresh: Path, tables: Iterable[str] | None = None) -> tuple[int, float, float]:
    """Copy ``tables`` (default: every table the ingest filled) of warehouse ``ingested`` into a new
    warehouse ``fresh`` in one transaction; return the rows copied and the CPU-seconds and wall seconds
    the copy and its commit took. The ``source`` rows go in first, untimed, as the frame writes them."""
    for stale in (fresh, Path(f"{fresh}-wal"), Path(f"{fresh}-shm")):
        stale.unlink(missing_ok=True)
    conn = db.connect(fresh)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the migrations' pages: not the copy's to write
        conn.execute("ATTACH DATABASE ? AS ingested", (str(ingested),))
        conn.execute("INSERT INTO source SELECT * FROM ingested.source")
        if tables is None:
            names = [row[0] for row in conn.execute(
                "SELECT name FROM pragma_table_list WHERE schema = 'ingested' AND type = 'table' "
                "AND name NOT LIKE 'sqlite_%' ORDER BY name")]
            tables = [name for name in names if name not in NOT_COPIED
                      and conn.execute(f'SELECT 1 FROM ingested."{name}" LIMIT 1').fetchone()
                      and not conn.execute(f'SELECT 1 FROM main."{name}" LIMIT 1').fetchone()]
        statements = []
        for table in tables:  # before the timer: order_of reads pragma_table_list, which prepares every view
            columns = ", ".join(f'"{row[1]}"' for row in conn.execute(f'PRAGMA main.table_xinfo("{table}")')
                                if not row[6])  # generated columns (hidden 2, 3) are computed, not copied
            statements.append(f'INSERT INTO main."{table}" ({columns}) SELECT {columns} FROM ingested."{table}" '
                              f'ORDER BY {order_of(conn, table)}')
        rows = 0
        conn.execute("BEGIN")
        cpu, wall = time.process_time(), time.perf_counter()
        for statement in statements:
            rows += conn.execute(statement).rowcount
        conn.execute("COMMIT")
        return rows, time.process_time() - cpu, time.perf_counter() - wall
    finally:
        conn.close()
