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
    # the source table's columns as the driver sees them, and the DROP in the comment never ran
    assert rows == [(";", len(warehouse_db.execute("SELECT * FROM source").description))]


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


def test_text_checks_come_before_parsing():
    from warehouse.readonly import check_text, nesting_depth

    assert nesting_depth("SELECT ((1)), '(((', \"(\" -- (((\n /* ((( */ FROM t") == 2
    with pytest.raises(UnsafeSql, match="WAREHOUSE_MAX_SQL_DEPTH"):
        check_text("SELECT " + "(" * 1000 + "1" + ")" * 1000)
    with pytest.raises(UnsafeSql, match="nested too deeply"):  # sqlglot's recursion, should the text check be off
        check_select("SELECT " + "(" * 1000 + "1" + ")" * 1000)


def test_values_answers_and_printf_widths_are_bounded():
    from warehouse.limits import Limits
    from warehouse.readonly import TooLarge

    conn = sqlite3.connect(":memory:")
    limits = Limits(MAX_VALUE_BYTES=1_000_000)
    with pytest.raises(TooLarge, match="WAREHOUSE_MAX_VALUE_BYTES"):
        run_select(conn, "SELECT zeroblob(400000000)", limits=limits)
    with pytest.raises(TooLarge, match="printf"):
        run_select(conn, "SELECT printf('%.*c', 999999999, 'x')", limits=limits)
    assert run_select(conn, "SELECT printf('%5.1f|%.*c', 2.25, 3, 'x')", limits=limits)[1] == [("  2.3|xxx",)]
    many = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000) SELECT zeroblob(100000) FROM n"
    with pytest.raises(TooLarge, match="WAREHOUSE_MAX_ANSWER_BYTES"):
        run_select(conn, many, max_bytes=5_000_000, limits=limits)
    # rows skipped are not kept; the limits are taken off the connection afterwards
    endless = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT i FROM n"
    assert run_select(conn, endless, skip=100_000, max_rows=2, max_bytes=1000)[1] == [(100_001,), (100_002,)]
    assert conn.getlimit(sqlite3.SQLITE_LIMIT_LENGTH) > 1_000_000


def test_the_datasette_plugin_limits_plain_datasette():
    import asyncio

    from datasette.app import Datasette

    async def ask():
        datasette = Datasette(memory=True)
        response = await datasette.client.get("/_memory.json?sql=select+length(zeroblob(400000000))+as+n")
        return response.status_code, response.text

    status, text = asyncio.run(ask())
    assert status == 400 and "too big" in text
