"""Many rows per INSERT (warehouse/sources/kit/multirow.py): every row in, in order, whatever the count, the
block size SQLite's variable limit allows, and the expressions around the placeholders."""

from __future__ import annotations

import sqlite3

import pytest

from warehouse.sources.kit import multirow

SQL = "INSERT INTO t (a, b, c) VALUES (?, NULLIF(NULLIF(CAST(? AS TEXT), '{}'), ''), 7 * ?)"


@pytest.fixture
def conn():
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b TEXT, c INTEGER)")
    return conn


def rows_of(count):
    return [(n, ["{}", "", b'{"k": 1}', None, f"x{n}"][n % 5], n) for n in range(count)]


def expected(count):
    return [(n + 1, n, [None, None, '{"k": 1}', None, f"x{n}"][n % 5], 7 * n) for n in range(count)]


@pytest.mark.parametrize("variable_limit, count", [
    (9, 0), (9, 1), (9, 3), (9, 4), (9, 7),  # blocks of 3 rows: none, a part, one, one and a part
    (30, 95),  # blocks of 10
    (32766, 2 * multirow.ROWS_PER_STATEMENT + 3),  # the default size, twice and a remainder
])
def test_every_row_goes_in_in_order(conn, variable_limit, count):
    conn.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, variable_limit)
    multirow.insert_rows(conn, SQL, rows_of(count))
    assert conn.execute("SELECT id, a, b, c FROM t ORDER BY id").fetchall() == expected(count)


def test_a_generator_is_read_a_block_at_a_time(conn):
    conn.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, 9)
    taken = []

    def rows():
        for row in rows_of(8):
            taken.append(row[0])
            if row[0] == 3:  # the first block (rows 0-2) is in before row 3 is read
                assert conn.execute("SELECT count(*) FROM t").fetchone()[0] == 3
            yield row

    multirow.insert_rows(conn, SQL, rows())
    assert taken == list(range(8))
    assert conn.execute("SELECT id, a, b, c FROM t ORDER BY id").fetchall() == expected(8)


def test_a_row_over_the_variable_limit_is_refused_as_executemany_would(conn):
    conn.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, 2)
    with pytest.raises(sqlite3.OperationalError, match="too many SQL variables"):
        multirow.insert_rows(conn, SQL, rows_of(2))  # SQLite refuses the row itself, as executemany would


def test_only_an_insert_values_statement(conn):
    with pytest.raises(ValueError, match="not an INSERT ... VALUES"):
        multirow.insert_rows(conn, "INSERT INTO t (a) SELECT ?", [(1,)])
