"""The transpiler keeps SQLite's meaning: each case runs on SQLite, DuckDB and Spark alike."""

from __future__ import annotations

import sqlite3

import pytest

from warehouse import queries
from warehouse.engines import functions, spark_ctes
from warehouse.engines.base import Export, TranspileError, translate, transpile

SCHEMA = {"t": {"a": "BIGINT", "b": "BIGINT", "x": "DOUBLE", "s": "TEXT"}}
ROWS = [(7, 2, 2.5, "abc"), (-7, 2, 0.1, "ABd"), (5, 0, 3.0, None), (1, 3, 214748364800.0, "x")]
PARAM_TYPES = {"p": "integer", "r": "real"}
PARAMS = {"p": 0, "r": 0.5}
#: (what it checks, SQLite SQL over t, its answer on ROWS: rows in order)
CASES = (
    ("integer division truncates toward zero, by zero is NULL", "select a, a / b from t order by a",
     [(-7, -3), (1, 0), (5, None), (7, 3)]),
    ("an aggregate of integers divides as integers", "select sum(a) / count(*) from t", [(1,)]),
    ("a real on one side divides as reals", "select a / x from t where a = 7", [(2.8,)]),
    ("a REAL literal makes a real division", "select 1.0 * a / b from t where a = 7", [(3.5,)]),
    ("a typed parameter divides as its type", "select a / (:p + 2) from t where a = 7", [(3,)]),
    ("LIKE ignores ASCII case", "select s from t where s like 'ab%' order by s", [("ABd",), ("abc",)]),
    ("NOT LIKE stays negated", "select s from t where s not like 'ab%' order by s", [("x",)]),
    ("LIKE keeps its ESCAPE", "select s from t where s || '_' like 'x\\_' escape '\\'", [("x",)]),
    ("NULL sorts first ascending", "select s from t order by s limit 2", [(None,), ("ABd",)]),
    ("a real as text is spelled as SQLite does", "select cast(x as text), 'x=' || x from t where a = 1",
     [("214748364800.0", "x=214748364800.0")]),
    ("group_concat keeps the order of its input",
     "with o as (select a, s from t where s is not null order by a desc) select group_concat(s, ',') from o",
     [("abc,x,ABd",)]),
    ("parameters bind with their types", "select count(*) from t where a > :p and x > :r", [(3,)]),
    ("json_object keeps a null member", "select json_object('a', a, 's', s) from t where a = 5",
     [('{"a":5,"s":null}',)]),
    ("a correlated subquery in a grouped select",
     "select b, count(*), (select max(u.a) from t as u where u.b = v.b) from t as v group by b order by b",
     [(0, 1, 5), (2, 2, 7), (3, 1, 1)]),
)


@pytest.mark.parametrize("what,sql,expected", CASES, ids=[c[0] for c in CASES])
def test_sqlite_answers(what, sql, expected):
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE t (a INTEGER, b INTEGER, x REAL, s TEXT)")
    conn.executemany("INSERT INTO t VALUES (?, ?, ?, ?)", ROWS)
    used = {k: v for k, v in PARAMS.items() if f":{k}" in sql}
    assert conn.execute(sql, used).fetchall() == expected


@pytest.mark.parametrize("what,sql,expected", CASES, ids=[c[0] for c in CASES])
def test_duckdb_answers_as_sqlite(what, sql, expected):
    import duckdb

    from warehouse.engines.duckdb import DuckDBEngine

    conn = duckdb.connect(":memory:")
    conn.execute("CREATE TABLE t (a BIGINT, b BIGINT, x DOUBLE, s VARCHAR)")
    conn.executemany("INSERT INTO t VALUES (?, ?, ?, ?)", ROWS)
    DuckDBEngine.define_functions(conn)
    used = {k: v for k, v in PARAMS.items() if f":{k}" in sql}
    assert conn.execute(transpile(sql, "duckdb", SCHEMA, PARAM_TYPES), used).fetchall() == expected


@pytest.mark.slow
@pytest.mark.parametrize("what,sql,expected", CASES, ids=[c[0] for c in CASES])
def test_spark_answers_as_sqlite(spark_session, what, sql, expected):
    spark_session.createDataFrame(ROWS, "a BIGINT, b BIGINT, x DOUBLE, s STRING").createOrReplaceTempView("t")
    spark_session.udf.register("sqlite_real_text", functions.sqlite_real_text, "string")
    used = {k: v for k, v in PARAMS.items() if f":{k}" in sql}
    from warehouse.engines.spark import rewrite

    rows = spark_session.sql(transpile(sql, "spark", SCHEMA, PARAM_TYPES, rewrite), args=used).collect()
    assert [tuple(r) for r in rows] == expected


#: CTE a is read twice (by b and by c), b twice, c once; on ROWS: [(1, 1, 7), (7, 2, 7)]
SHARED_CTES = ("with a as (select a, b from t where b > 0), b as (select a from a where a > 0), "
               "c as (select sum(b) as total from a) "
               "select b1.a, (select count(*) from b as b2 where b2.a <= b1.a) as below, c.total "
               "from b as b1 cross join c order by b1.a")


def test_the_ctes_read_more_than_once_are_found():
    assert spark_ctes.shared(translate(SHARED_CTES, "spark", SCHEMA, {})) == ["a", "b"]
    assert spark_ctes.shared(translate("select a from t", "spark", SCHEMA, {})) == []


@pytest.mark.slow
def test_spark_reads_each_shared_cte_from_a_view_of_its_own(spark_session):
    from warehouse.engines.spark import rewrite

    spark_session.createDataFrame(ROWS, "a BIGINT, b BIGINT, x DOUBLE, s STRING").createOrReplaceTempView("t")
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE t (a INTEGER, b INTEGER, x REAL, s TEXT)")
    conn.executemany("INSERT INTO t VALUES (?, ?, ?, ?)", ROWS)
    expected = conn.execute(SHARED_CTES).fetchall()
    assert expected == [(1, 1, 7), (7, 2, 7)]

    def views():
        return sorted(t.name.split("_", 2)[2] for t in spark_session.catalog.listTables() if t.name.startswith("_cte"))

    with spark_ctes.frame(spark_session, translate(SHARED_CTES, "spark", SCHEMA, {}, rewrite), {}) as frame:
        assert views() == ["a", "b"]
        assert [tuple(r) for r in frame.collect()] == expected
    assert views() == []


def test_a_division_of_unknown_types_is_refused():
    with pytest.raises(TranspileError, match=r"cannot tell whether this divides integers"):
        transpile("select a / y from t", "duckdb", SCHEMA, {})


def test_unsupported_syntax_is_refused():
    with pytest.raises(TranspileError, match="cannot write the query for duckdb"):
        transpile("select a from t where", "duckdb", SCHEMA, {})


@pytest.mark.parametrize("dialect", ("duckdb", "spark"))
def test_every_named_query_transpiles(exported, dialect):
    # a query that cannot be carried over faithfully fails here, by name
    schema = Export.open(exported).schema()
    for query in queries.registry().values():
        text = transpile(query.sql, dialect, schema, {p.name: p.type for p in query.params})
        assert text.upper().startswith(("WITH", "SELECT")), query.name


@pytest.mark.parametrize("value,text", (
    (214748364800.0, "214748364800.0"), (0.1 + 0.2, "0.3"), (3.0, "3.0"), (-0.0, "0.0"), (1e20, "1.0e+20"),
    (1.5e-7, "1.5e-07"), (float("inf"), "Inf"), (None, None),
))
def test_sqlite_real_text_is_sqlites_spelling(value, text):
    assert functions.sqlite_real_text(value) == text
    if value is not None:
        assert sqlite3.connect(":memory:").execute("SELECT CAST(? AS TEXT)", (value,)).fetchone()[0] == text
