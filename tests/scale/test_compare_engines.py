"""``warehouse compare --engine duckdb --data DIR`` on a Parquet export answers as ``--db`` does.

The same warehouse is compared on SQLite and, exported, on DuckDB: the printed answers (JSON)
are equal and the report (Markdown, every regression's evidence rows) is the same text but for
its title, which names the warehouse or the dataset. Two Ascend runs with a hostile kernel name
(evidence from kernels and steps), two GPU kineto traces (evidence from 'kernel' slices), and two
runs of one cluster shape numbered otherwise (ranks paired by place).
Spark over the Spark ingest's dataset is tested in tests/scale/test_spark_ingest.py.
"""

from __future__ import annotations

import json

import pytest

from tests.queries.test_compare_queries import renumbered_runs
from tests.test_compare import gpu_trace, two_runs
from warehouse import db, export
from warehouse.cli import cli


def compared(runner, where: list[str], base: str, run: str, report) -> tuple[dict, list[str]]:
    """The JSON answers of ``warehouse compare`` and its Markdown report's lines after the title."""
    result = runner.invoke(cli, ["compare", *where, base, run, "--format", "json", "-o", str(report)])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout), report.read_text(encoding="utf-8").splitlines()[1:]


def assert_same_compare(runner, tmp_path, db_path, base: str, run: str) -> list[str]:
    """Compare on SQLite and on DuckDB over the export; the report's lines (equal on both)."""
    export.export_parquet(db_path, tmp_path / "export")
    on_sqlite = compared(runner, ["--db", str(db_path)], base, run, tmp_path / "sqlite.md")
    on_duckdb = compared(runner, ["--engine", "duckdb", "--data", str(tmp_path / "export")], base, run,
                         tmp_path / "duckdb.md")
    assert on_duckdb == on_sqlite
    return on_sqlite[1]


def test_ascend_runs_compare_alike_with_their_evidence(tmp_path, runner):
    two_runs(tmp_path / "w.db")
    report = assert_same_compare(runner, tmp_path, tmp_path / "w.db", "base", "2")
    evidence = [line for line in report if "/runs/after/rank0/rank_db" in line]
    assert evidence and all("| kernel |" in line or "| step |" in line for line in evidence)
    assert "&lt;img src=x" in "\n".join(report)


def test_kineto_traces_compare_alike_with_their_slices_as_evidence(tmp_path, runner):
    for name, sgemm in (("gpu_base", 2), ("gpu_after", 3)):
        trace = gpu_trace(tmp_path / name / "worker0.pt.trace.json", sgemm)
        result = runner.invoke(cli, ["ingest", str(trace), "--db", str(tmp_path / "w.db"), "--run", name, "-q",
                                     "--label", f"commit={name}"])
        assert result.exit_code == 0, result.output
    report = assert_same_compare(runner, tmp_path, tmp_path / "w.db", "gpu_base", "gpu_after")
    sgemm = [line for line in report if "| slice |" in line]
    # the regression ampere_sgemm (2 -> 3 ms): its one slice in each run
    assert [line.split(" | ")[0].strip("| ") for line in sgemm] == ["gpu_base", "gpu_after"]
    assert [line.split(" | ")[-1].strip(" |") for line in sgemm] == ["2000000", "3000000"]


def test_ranks_numbered_otherwise_pair_by_place_alike(tmp_path, runner):
    conn = db.connect(tmp_path / "w.db")
    renumbered_runs(conn)
    conn.close()
    report = "\n".join(assert_same_compare(runner, tmp_path, tmp_path / "w.db", "base", "after"))
    assert "| place | ranks paired by place in the cluster" in report
    assert "group of ranks 1,3 (baseline: 2,3), rank 3: mean_time_ns" in report


def test_an_unknown_run_on_a_dataset_is_one_line(tmp_path, runner):
    two_runs(tmp_path / "w.db")
    export.export_parquet(tmp_path / "w.db", tmp_path / "export")
    result = runner.invoke(cli, ["compare", "--engine", "duckdb", "--data", str(tmp_path / "export"), "base", "nope"])
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        f"Error: {tmp_path / 'export'}: no run 'nope' in this warehouse (runs: base, after)"]


@pytest.mark.parametrize("where", [["--engine", "duckdb"], ["--engine", "spark"]])
def test_an_engine_without_its_dataset_is_a_usage_error(runner, where):
    result = runner.invoke(cli, ["compare", *where, "base", "after"])
    assert result.exit_code == 2 and "give its folder" in result.output
