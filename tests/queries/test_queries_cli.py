"""``warehouse queries`` and ``warehouse query NAME -p k=v`` through click's CliRunner."""

from __future__ import annotations

import csv
import io
import json

from factories.warehouse_rows import KernelFactory
from warehouse import queries
from warehouse.cli import cli


def test_queries_lists_the_catalog(runner):
    result = runner.invoke(cli, ["queries"])
    assert result.exit_code == 0
    line = next(line for line in result.output.splitlines() if " top_kernels " in line)
    assert "rank_id=None, limit=20" in line and "Top kernels" in line
    assert "thread_id*, start*, end*, min_dur=0" in result.output


def test_queries_json_has_every_query_with_params_and_columns(runner):
    catalog = json.loads(runner.invoke(cli, ["queries", "--format", "json"]).output)
    assert [q["name"] for q in catalog] == list(queries.catalog())
    assert "insight_op_run" in queries.registry() and "insight_op_run" not in {q["name"] for q in catalog}
    slices = next(q for q in catalog if q["name"] == "timeline_slices")
    assert slices["params"][0] == {"name": "thread_id", "type": "integer", "required": True, "default": None,
                                   "meaning": "Thread to show (thread.id)."}
    assert slices["sql"].startswith("with bounds as")


def test_an_internal_query_is_not_run_by_name(runner, warehouse_path):
    result = runner.invoke(cli, ["query", "insight_op_run", "--db", str(warehouse_path), "-p", "source_id=1"])
    assert result.exit_code == 1 and "no query named 'insight_op_run'" in result.output


def test_query_runs_with_text_params(runner, rows, warehouse_path):
    KernelFactory(rank_id=0, name="MatMul", dur=300)
    KernelFactory(rank_id=1, name="Add", dur=100)
    result = runner.invoke(cli, ["query", "top_kernels", "--db", str(warehouse_path), "-p", "rank_id=1",
                                 "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == [{"run_id": 1, "name": "Add", "op_class": "aic", "count": 1, "total_ns": 100,
                                          "avg_ns": 100, "max_ns": 100, "ratio": 1.0}]
    csv_out = runner.invoke(cli, ["query", "top_kernels", "--db", str(warehouse_path), "--format", "csv"]).output
    assert csv_out.splitlines()[1:] == ["1,MatMul,aic,1,300,300,300,0.75", "1,Add,aic,1,100,100,100,0.25"]


def test_query_mistakes_are_one_line_errors(runner, rows, warehouse_path):
    db = ["--db", str(warehouse_path)]
    bad_value = runner.invoke(cli, ["query", "top_kernels", *db, "-p", "rank_id=first"])
    assert bad_value.exit_code == 1
    assert bad_value.output.strip() == "Error: parameter rank_id: 'first' is not an integer"
    missing = runner.invoke(cli, ["query", "timeline_slices", *db])
    assert missing.exit_code == 1 and "parameter thread_id is required" in missing.output
    unknown = runner.invoke(cli, ["query", "no_such", *db])
    assert unknown.exit_code == 1 and "no query named 'no_such'" in unknown.output
    no_equals = runner.invoke(cli, ["query", "top_kernels", *db, "-p", "rank_id"])
    assert no_equals.exit_code == 2 and "is not KEY=VALUE" in no_equals.output


def test_query_csv_neutralises_formula_cells_and_keeps_numbers(runner, rows, warehouse_path):
    """OWASP CSV injection: a text cell starting with = + - @ tab or CR gets a leading quote; numbers stay numbers."""
    KernelFactory(rank_id=0, name='=HYPERLINK("http://evil.example","click")', dur=400)
    KernelFactory(rank_id=0, name="@SUM(A1:A9)", dur=300)
    KernelFactory(rank_id=0, name="-1+2", dur=200)
    KernelFactory(rank_id=0, name="\rcarriage", dur=100)
    result = runner.invoke(cli, ["query", "top_kernels", "--db", str(warehouse_path), "--format", "csv"])
    assert result.exit_code == 0, result.output
    parsed = list(csv.DictReader(io.StringIO(result.output)))
    assert [row["name"] for row in parsed] == ["'=HYPERLINK(\"http://evil.example\",\"click\")", "'@SUM(A1:A9)",
                                               "'-1+2", "'\rcarriage"]
    assert [row["total_ns"] for row in parsed] == ["400", "300", "200", "100"]


def test_sql_csv_keeps_negative_numbers_and_writes_blobs_as_hex(runner, rows, warehouse_path):
    sql = "SELECT -7 AS n, -0.5 AS r, '-7' AS t, x'cafe' AS b, '=1+1' AS f, 'a,b' AS c"
    result = runner.invoke(cli, ["sql", sql, "--db", str(warehouse_path), "--format", "csv"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == ["n,r,t,b,f,c", "-7,-0.5,'-7,cafe,'=1+1,\"a,b\""]
    as_json = json.loads(runner.invoke(cli, ["sql", sql, "--db", str(warehouse_path), "--format", "json"]).output)
    assert as_json == [{"n": -7, "r": -0.5, "t": "-7", "b": "cafe", "f": "=1+1", "c": "a,b"}]
