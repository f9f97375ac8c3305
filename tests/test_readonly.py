"""The ad-hoc SQL guard: sqlglot lint, then SQLite's authorizer at run time."""

import sqlite3

import pytest

from warehouse.readonly import UnsafeSql, check_select, run_select


@pytest.mark.parametrize(
    "sql",
    (
        "DELETE FROM source",
        "ATTACH DATABASE '/tmp/x.db' AS x",
        "PRAGMA user_version = 3",
        "SELECT 1; SELECT 2",
        "WITH d AS (DELETE FROM source RETURNING id) SELECT * FROM d",
        "SELECT load_extension('/tmp/evil')",
        "CREATE TABLE t (x)",
        "VACUUM INTO '/tmp/copy.db'",
        "SELEC 1",
    ),
)
def test_anything_but_one_read_only_query_is_refused(sql):
    with pytest.raises(UnsafeSql):
        check_select(sql)


def test_reads_with_comments_strings_and_pragma_functions_pass(warehouse_db):
    columns, rows = run_select(
        warehouse_db,
        "-- a comment; DROP TABLE source\nSELECT ';' AS semi, count(*) AS n FROM pragma_table_info('source')",
    )
    assert columns == ["semi", "n"]
    assert rows == [(";", 16)]


def test_parameters_row_limit_and_time_limit(warehouse_db):
    sql = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < :top) SELECT i FROM n"
    assert run_select(warehouse_db, sql, {"top": 5}, max_rows=3)[1] == [(1,), (2,), (3,)]
    from warehouse.errors import WarehouseError

    with pytest.raises(WarehouseError, match="time limit"):
        run_select(warehouse_db, sql, {"top": 10**12}, time_limit_s=0.2)


def test_authorizer_refuses_what_the_lint_cannot_see():
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE t (x)")
    # a view can hide nothing: reading through it is allowed, a write function is not
    with pytest.raises(UnsafeSql):
        run_select(conn, "SELECT writefile('/tmp/pwned', 'x')")
