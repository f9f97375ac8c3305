"""One rule for the run a user names (issue 33): its name, else its id; `warehouse report --run`
and `warehouse compare` (on a warehouse or through a dataset's runner) read names alike."""

from __future__ import annotations

import pytest

from factories import warehouse_rows
from warehouse import db
from warehouse.cli import cli
from warehouse.model import runs
from warehouse.report import compare


@pytest.fixture
def warehouse(tmp_path):
    """Runs 1 'base', 2 '3' (a run named after a folder called 3), 3 'after'."""
    path = tmp_path / "w.db"
    conn = db.connect(path)
    with warehouse_rows.bound(conn):
        for name in ("base", "3", "after"):
            warehouse_rows.rank_source(0, run=name)
    conn.commit()
    yield path, conn
    conn.close()


def test_a_name_wins_over_an_id_and_digits_are_an_id_otherwise():
    names = {1: "base", 2: "3", 3: "after"}
    assert runs.run_id_named(names, "base") == 1
    assert runs.run_id_named(names, "3") == 2  # the run called "3", not run 3
    assert runs.run_id_named(names, "1") == 1
    assert runs.run_id_named(names, 1) == 1 and runs.run_id_named(names, "03") == 3
    with pytest.raises(runs.UnknownRun, match=r"^no run '7' in this warehouse \(runs: base, 3, after\)$"):
        runs.run_id_named(names, "7")
    with pytest.raises(runs.UnknownRun, match=r"^no run 'x' in this warehouse \(runs: none\)$"):
        runs.run_id_named({}, "x")


def test_a_name_two_runs_have_is_refused():
    """A dataset's run table has no unique key: a name two runs have picks neither."""
    with pytest.raises(runs.UnknownRun, match=r"^'job' names 2 runs \(ids 4, 9\): name one by its id$"):
        runs.run_id_named({4: "job", 9: "job", 5: "other"}, "job")
    assert runs.run_id_named({4: "job", 9: "job"}, "9") == 9


def test_the_warehouse_and_compare_resolve_alike(warehouse):
    path, conn = warehouse
    assert [runs.resolve(conn, run) for run in ("base", "3", "2", None, "")] == [1, 2, 2, None, None]
    base, run = compare.resolve_pair(compare.sqlite_runner(conn), "3", "after")
    assert (base.run_id, base.name, run.run_id, run.name) == (2, "3", 3, "after")
    with pytest.raises(runs.UnknownRun, match="no run 'nope'"):
        compare.resolve_pair(compare.sqlite_runner(conn), "base", "nope")


def test_report_and_compare_refuse_an_unknown_run_in_the_same_words(warehouse, runner, tmp_path):
    path, _ = warehouse
    expected = f"Error: {path}: no run '9' in this warehouse (runs: base, 3, after)"
    report = runner.invoke(cli, ["report", "--db", str(path), "-o", str(tmp_path / "r.md"), "--run", "9"])
    compared = runner.invoke(cli, ["compare", "--db", str(path), "base", "9"])
    assert (report.exit_code, compared.exit_code) == (1, 1)
    assert report.output.strip().splitlines() == compared.output.strip().splitlines() == [expected]
