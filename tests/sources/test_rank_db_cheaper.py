"""The rank db ingest's cheaper paths (issue 21 item 3) decide exactly what the full ones did.

The integer check's fast branch for canonical integer text, the slice counts per name taken where
the slices were written, and the parts without their secondary indexes: each is checked against
what it replaces (the text grammar, the count through the threads, the warehouse's own indexes).
"""

from __future__ import annotations

import random
import re
import sqlite3
from pathlib import Path

from tests.factories.rank_db import RankDbFactory
from warehouse import db
from warehouse.ingest import parts
from warehouse.ingest import ingest_file
from warehouse.sources import rank_db

INT64_MAX = "9223372036854775807"
TRICKY = ["0", "00", "007", "-0", "-", "", "+5", " 5", "5 ", "1e3", "1.0", "--5", "5-", "abc", "\u0661\u0662",
          INT64_MAX, "9223372036854775808", "-9223372036854775807", "-9223372036854775808",
          "18446744073709551615", "0009223372036854775807", "0000000000000000001", "00000000000000000001",
          "1736410576000000000", "-1736410576000000000", "99999999999999999999"]


def grammar_ok(value: str) -> bool:
    """The text the full check accepts: an optional '-', then 1-19 digits of at most INT64_MAX."""
    match = re.fullmatch(r"-?([0-9]+)", value)
    if not match:
        return False
    digits = match[1]
    return len(digits) < 19 or (len(digits) == 19 and digits <= INT64_MAX)


def test_integer_check_accepts_exactly_the_integer_text_grammar():
    generator = random.Random(21)
    values = TRICKY + [str(generator.randint(-(1 << 64), 1 << 64)) for _ in range(500)]
    values += [str(generator.randint(0, (1 << 63) - 1)) for _ in range(500)]
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE t (v)")
    conn.executemany("INSERT INTO t VALUES (?)", [(value,) for value in values])
    got = [bool(ok) for (ok,) in conn.execute(f"SELECT {rank_db._integer_ok('v')} FROM t ORDER BY rowid")]
    assert got == [grammar_ok(value) for value in values]
    assert sum(got) > 500  # most random values are in range: both branches ran


def test_a_refused_text_time_still_names_file_row_and_value(tmp_path, warehouse_db):
    path = tmp_path / "ascend_pytorch_profiler_0.db"
    RankDbFactory(path=path, rank_id=0)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE PYTORCH_API SET startNs = '-9223372036854775808' WHERE rowid = 2")
    result = ingest_file(warehouse_db, path)
    assert result.status == "failed"
    assert result.error == (f"{path}: PYTORCH_API: row 2: startNs is not a 64-bit integer "
                            "(text '-9223372036854775808')")


def slice_counts_through_threads(conn: sqlite3.Connection, source_id: int) -> list[tuple]:
    return conn.execute(
        "SELECT s.name_id, count(*) FROM thread AS t JOIN _slice AS s ON s.thread_id = t.id "
        "WHERE t.source_id = ? AND s.name_id IS NOT NULL GROUP BY s.name_id ORDER BY s.name_id",
        (source_id,)).fetchall()


def test_slice_name_counts_equal_the_count_through_threads(tmp_path, warehouse_db):
    sources = []
    for rank in (0, 1):
        path = tmp_path / f"ascend_pytorch_profiler_{rank}.db"
        RankDbFactory(path=path, rank_id=rank)
        result = ingest_file(warehouse_db, path)
        assert result.status == "ok", result.error
        sources.append(result.source_id)
    for source_id in sources:
        counted = warehouse_db.execute(
            "SELECT string_id, row_count FROM name_use WHERE input_source_id = ? AND kind = 'slice' "
            "ORDER BY string_id", (source_id,)).fetchall()
        assert counted == slice_counts_through_threads(warehouse_db, source_id)
        assert sum(count for _, count in counted) > 10
    # the second rank's slices start past the first's: its counts are its own
    assert warehouse_db.execute("SELECT count(*) FROM temp._slice_name_count").fetchone()[0] == 0


def created_indexes(conn: sqlite3.Connection) -> set[str]:
    return {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")}


def test_a_part_keeps_only_the_index_nesting_reads(tmp_path: Path):
    warehouse = db.connect(tmp_path / "warehouse.db")
    part = db.connect(tmp_path / "part.db")
    parts.drop_part_indexes(part)
    dropped = created_indexes(warehouse) - created_indexes(part)
    assert {"kernel_name", "flow_out", "flow_in", "pytorch_api_source", "cann_api_rank_ts"} <= dropped
    assert "_slice_thread_ts" in created_indexes(part)
    # only indexes of the tables the parent copies go; keys and UNIQUE constraints are never dropped
    copied = set(parts.copied_tables(warehouse))
    tables = dict(warehouse.execute("SELECT name, tbl_name FROM sqlite_master WHERE type = 'index'"))
    assert {tables[name] for name in dropped} <= copied
    autoindexes = "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND sql IS NULL"
    assert part.execute(autoindexes).fetchone() == warehouse.execute(autoindexes).fetchone()
    warehouse.close()
    part.close()


def test_the_warehouse_keeps_its_indexes_after_a_parallel_ingest(tmp_path, monkeypatch):
    from warehouse import ingest as ingest_frame

    monkeypatch.setattr(ingest_frame, "MIN_PART_BYTES", 0)
    path = tmp_path / "ascend_pytorch_profiler_0.db"
    RankDbFactory(path=path, rank_id=0)
    conn = db.connect(tmp_path / "warehouse.db")
    expected = created_indexes(conn)
    results = ingest_frame.ingest_paths(conn, [path], jobs=2)
    assert [r.status for r in results] == ["ok"]
    assert created_indexes(conn) == expected
    assert conn.execute("SELECT count(*) FROM kernel INDEXED BY kernel_name").fetchone()[0] > 0
    conn.close()
