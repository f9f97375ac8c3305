"""`warehouse ingest` on a path with nothing to read says so, exits non-zero and leaves no warehouse
behind (a user pointing at the wrong folder must not get an empty warehouse and exit 0)."""

import sqlite3

from tests.factories.trace_json import TraceFileFactory
from warehouse.cli import cli


def test_an_empty_folder_is_refused_before_any_warehouse_is_made(runner, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    warehouse = tmp_path / "w.db"
    result = runner.invoke(cli, ["ingest", str(empty), "--db", str(warehouse)])
    assert result.exit_code == 1
    assert f"{empty}: no file to read (an empty folder); nothing ingested" in result.output
    assert "Traceback" not in result.output
    assert not warehouse.exists()


def test_a_folder_holding_only_the_warehouse_is_empty(runner, tmp_path):
    warehouse = tmp_path / "w.db"
    TraceFileFactory(path=tmp_path / "run" / "trace.json")
    assert runner.invoke(cli, ["ingest", str(tmp_path / "run"), "--db", str(warehouse), "-q"]).exit_code == 0
    result = runner.invoke(cli, ["ingest", str(tmp_path), "--db", str(warehouse), "-q"])
    assert result.exit_code == 0  # the trace is there (unchanged): something to read
    (tmp_path / "run" / "trace.json").unlink()
    (tmp_path / "run").rmdir()
    result = runner.invoke(cli, ["ingest", str(tmp_path), "--db", str(warehouse)])
    assert result.exit_code == 1
    assert "no file to read" in result.output


def test_a_folder_of_files_no_source_reads_leaves_no_new_warehouse(runner, tmp_path):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "readme.txt").write_text("not a profile\n")
    warehouse = tmp_path / "w.db"
    result = runner.invoke(cli, ["ingest", str(notes), "--db", str(warehouse)])
    assert result.exit_code == 1
    assert "skipped" in result.output  # the table still says what happened to each file
    assert f"{notes}: no file is a profiler output this warehouse reads; nothing ingested" in result.output
    assert not warehouse.exists() and not (tmp_path / "w.db-wal").exists()


def test_an_existing_warehouse_is_kept_when_nothing_is_read(runner, tmp_path):
    warehouse = tmp_path / "w.db"
    TraceFileFactory(path=tmp_path / "run" / "trace.json")
    assert runner.invoke(cli, ["ingest", str(tmp_path / "run"), "--db", str(warehouse), "-q"]).exit_code == 0
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "readme.txt").write_text("not a profile\n")
    result = runner.invoke(cli, ["ingest", str(tmp_path / "notes"), "--db", str(warehouse)])
    assert result.exit_code == 1
    assert f"({warehouse} is unchanged)" in result.output
    with sqlite3.connect(warehouse) as conn:
        assert conn.execute("SELECT count(*) FROM source WHERE status = 'ok'").fetchone()[0] == 1


def test_files_read_beside_files_skipped_is_success(runner, tmp_path):
    TraceFileFactory(path=tmp_path / "run" / "trace.json")
    (tmp_path / "run" / "readme.txt").write_text("not a profile\n")
    result = runner.invoke(cli, ["ingest", str(tmp_path / "run"), "--db", str(tmp_path / "w.db")])
    assert result.exit_code == 0
    assert "1 ok" in result.output and "1 skipped" in result.output
