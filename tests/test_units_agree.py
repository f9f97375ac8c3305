"""Units have one definition (warehouse/units.py): the Python functions, the SQL functions as SQLite
runs them (the named queries' and Datasette's), as DuckDB runs them, Datasette's table cells and the
pages' JavaScript (WH.formatNs, formatBytes, formatRate, run by node on the rules the page gets)
write the same text for every value."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
from pathlib import Path

import duckdb
import pytest

from datasette_plugins import cells, functions
from warehouse import readonly, units
from warehouse.engines.base import WAREHOUSE_FUNCTION_PREFIX
from warehouse.engines.duckdb import DuckDBEngine

WAREHOUSE_JS = Path(__file__).resolve().parents[1] / "datasette_plugins" / "static" / "warehouse.js"
NAMES = ("format_ns", "format_bytes", "format_rate")
#: each unit's edges (999 / 1000 ns, 1023 / 1024 B), halves at the last decimal (1280 B is 1.25 KiB,
#: 1062500 ns 1.0625 ms, 2.5 ns, -2.5 ns), values that round up into the next figure, negatives, a -0.0
#: and a -0.4 that must not read "-0", and the largest units
VALUES = (None, 0, 1, 999, 1000, 999_999, 10**6, 1e6, 1.5e9, 2**10 - 1, 2**10, 1280, 1_062_500, 2**30, 5 * 2**40,
          2**60, 0.5, 2.5, 999.6, 999_999.6, 1023.6, -1, -1280, -1_500, -2.5e9, -2.5, -0.5, -0.0, -0.4)
#: a column whose Datasette cell is written by each function (the column's name says its unit)
CELL_COLUMNS = {"format_ns": "total_ns", "format_bytes": "peak_bytes", "format_rate": "rx_bytes_per_s"}
#: loads warehouse.js as a page does (window.WAREHOUSE.units from the server), calls its formatters
NODE_SCRIPT = """
const vm = require("vm"), fs = require("fs");
const input = JSON.parse(fs.readFileSync(0, "utf8"));
const window = { WAREHOUSE: { units: input.units } };
vm.runInNewContext(fs.readFileSync(input.script, "utf8"), { window: window });
process.stdout.write(JSON.stringify(input.calls.map(([name, value]) => window.WH[name](value))));
"""
JS_NAMES = {"format_ns": "formatNs", "format_bytes": "formatBytes", "format_rate": "formatRate"}


def python_texts() -> dict:
    """(function, value) -> the text of the Python function: None for None."""
    return {(name, repr(value)): None if value is None else getattr(units, name)(value)
            for name in NAMES for value in VALUES}


def named_queries(tmp_path, values=VALUES) -> dict:
    """SQLite as the named queries and the rules run: functions added by readonly.run_select."""
    conn = sqlite3.connect(tmp_path / "named.db")
    try:
        return sqlite_texts(values, lambda sql, params: readonly.run_select(conn, sql, params)[1][0])
    finally:
        conn.close()


def datasette_sql(tmp_path) -> dict:
    """SQLite as Datasette's connections: functions added by its prepare_connection."""
    conn = sqlite3.connect(tmp_path / "datasette.db")
    functions.register(conn)
    try:
        return sqlite_texts(VALUES, lambda sql, params: conn.execute(sql, params).fetchone())
    finally:
        conn.close()


def sqlite_texts(values, select) -> dict:
    """The texts of one SELECT of the three functions per value."""
    texts = {}
    for value in values:
        row = select(f"SELECT {', '.join(f'{name}(:v)' for name in NAMES)}", {"v": value})
        texts.update({(name, repr(value)): text for name, text in zip(NAMES, row)})
    return texts


def duckdb_sql(tmp_path) -> dict:
    """DuckDB as its engine defines the functions (the transpiler's names)."""
    conn = duckdb.connect(str(tmp_path / "engine.duckdb"))
    DuckDBEngine.define_functions(conn)
    try:
        return {(name, repr(value)): conn.execute(f"SELECT {WAREHOUSE_FUNCTION_PREFIX}{name}(?)", [value]).fetchone()[0]
                for name in NAMES for value in VALUES}
    finally:
        conn.close()


def datasette_cells(tmp_path) -> dict:
    """Datasette's table cells (a NULL cell is left as it is: None)."""
    return {(name, repr(value)): None if value is None else cells.readable(CELL_COLUMNS[name], value)
            for name in NAMES for value in VALUES}


def javascript(tmp_path) -> dict:
    """The pages' formatters, run by node on the rules as the page embeds them (JSON); a NULL
    reads as an empty text there, None here."""
    node = shutil.which("node")
    assert node, "no node: install Debian's nodejs package (the pages' formatters are checked with it)"
    calls = [(name, value) for name in NAMES for value in VALUES]
    request = {"script": str(WAREHOUSE_JS), "units": json.loads(json.dumps(units.TABLE)),
               "calls": [[JS_NAMES[name], value] for name, value in calls]}
    result = subprocess.run([node, "-e", NODE_SCRIPT], input=json.dumps(request), capture_output=True, text=True,
                            check=True, timeout=60)
    return {(name, repr(value)): text or None for (name, value), text in zip(calls, json.loads(result.stdout))}


@pytest.mark.parametrize("texts", (named_queries, datasette_sql, duckdb_sql, datasette_cells, javascript),
                         ids=lambda texts: texts.__name__)
def test_every_formatter_writes_what_python_writes(tmp_path, texts):
    expected, found = python_texts(), texts(tmp_path)
    assert {call: (text, expected[call]) for call, text in found.items() if text != expected[call]} == {}
    assert found.keys() == expected.keys()


@pytest.mark.parametrize(
    "name,value,text",
    (
        ("format_bytes", 1280, "1.3 KiB"),  # 1.25: halves away from zero, as JavaScript's toFixed
        ("format_bytes", -1280, "-1.3 KiB"),
        ("format_ns", 1_062_500, "1.063 ms"),
        ("format_ns", 2.5, "3 ns"),
        ("format_ns", -0.4, "0 ns"),  # never "-0"
        ("format_ns", 999_999.6, "1000.000 us"),  # the unit is chosen before rounding
        ("format_bytes", 5 * 2**40, "5.0 TiB"),
        ("format_bytes", 2**60, "1024.0 PiB"),  # PiB is the largest
        ("format_rate", 2**31, "2.0 GiB/s"),  # binary, as sizes (the inputs' GB/s are 10**9 bytes/s)
        ("format_rate", 15_723_900_000, "14.6 GiB/s"),
    ),
)
def test_the_rules(name, value, text):
    assert getattr(units, name)(value) == text


@pytest.mark.parametrize("value", ("abc", float("inf"), float("-inf")))
def test_what_is_no_finite_number_is_null(tmp_path, value):
    """As SQLite's own math functions: NULL, not an error that stops the query."""
    assert named_queries(tmp_path, (value,)) == {(name, repr(value)): None for name in NAMES}
