"""Parallel ingest: files ingested in worker processes and copied in give the same warehouse."""

import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from factories.rank_db import RankDbFactory

from warehouse import db, demo, ingest as ingest_frame
from warehouse.ingest import parts
from warehouse.cli import cli

#: columns that hold when or how long, which differ between any two runs
TIMING_COLUMNS = {"ingested_at", "elapsed_ns", "applied_at", "created_at"}


@pytest.fixture
def every_file_in_parts(monkeypatch):
    """Send every file, however small, to the workers."""
    monkeypatch.setattr(ingest_frame, "MIN_PART_BYTES", 0)


def contents(path: Path) -> dict[str, list[tuple]]:
    """Every table's rows in rowid order, without the timing columns.

    A virtual table's shadow tables are left out: how FTS5 lays out its index pages depends on
    how the rows came (tests/test_search_names.py checks that the name index answers alike)."""
    conn = sqlite3.connect(path)
    tables = {}
    for (table,) in conn.execute(
            "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type IN ('table', 'virtual') ORDER BY name"):
        columns = [row[1] for row in conn.execute(f'PRAGMA table_info("{table}")') if row[1] not in TIMING_COLUMNS]
        names = ", ".join(f'"{column}"' for column in columns)
        tables[table] = conn.execute(f'SELECT {names} FROM "{table}" ORDER BY rowid').fetchall()
    conn.close()
    return tables


def ingest(path: Path, inputs: list[Path], jobs: int, force: bool = False) -> list[ingest_frame.FileResult]:
    conn = db.connect(path)
    try:
        return ingest_frame.ingest_paths(conn, inputs, jobs=jobs, force=force)
    finally:
        conn.close()


@pytest.mark.slow
def test_parts_give_the_same_rows_and_ids_as_one_process(tmp_path, realdata, every_file_in_parts):
    inputs = [demo.write_inputs(tmp_path / "demo"), realdata / "msinsight"]
    serial = ingest(tmp_path / "serial.db", inputs, jobs=1)
    parallel = ingest(tmp_path / "parallel.db", inputs, jobs=2)

    assert [(r.path, r.status, r.kind, r.rows, r.error) for r in parallel] == [
        (r.path, r.status, r.kind, r.rows, r.error) for r in serial
    ]
    assert {r.kind for r in serial} >= {"rank_db", "trace_json", "op_profile", "kernel_details_csv", "profiler_info_json"}
    expected, got = contents(tmp_path / "serial.db"), contents(tmp_path / "parallel.db")
    assert sum(map(len, expected.values())) > 100_000
    for table in expected:
        assert got[table] == expected[table], table


@pytest.mark.slow
def test_a_rank_already_held_is_refused_from_a_part_and_force_replaces_it(tmp_path, every_file_in_parts):
    (tmp_path / "run").mkdir()  # one run: a second file of rank 0 beside the first
    first = RankDbFactory(path=tmp_path / "run" / "ascend_pytorch_profiler_0.db").path
    later = RankDbFactory(path=tmp_path / "run" / "ascend_pytorch_profiler_0_b.db", ts0=2_000_000_000_000_000_000)
    second = later.path
    warehouse = tmp_path / "w.db"
    ingest(warehouse, [first], jobs=2)

    (refused,) = ingest(warehouse, [second], jobs=2)
    assert refused.status == "failed"
    assert "rank 0 is already in the warehouse from" in refused.error and str(first) in refused.error

    (replaced,) = ingest(warehouse, [second], jobs=2, force=True)
    assert replaced.status == "ok"
    conn = sqlite3.connect(warehouse)
    assert conn.execute("SELECT path FROM source WHERE status = 'ok'").fetchall() == [(str(second),)]
    assert conn.execute("SELECT source_id FROM rank").fetchall() == [(replaced.source_id,)]
    assert conn.execute("SELECT count(*), min(ts) >= 2e18, max(source_id) FROM kernel").fetchone() == (
        len(later.rows("COMPUTE_TASK_INFO")), 1, replaced.source_id)


def test_a_file_that_fails_in_a_worker_is_recorded_with_its_reason(tmp_path, every_file_in_parts):
    good = tmp_path / "in" / "trace.json"
    good.parent.mkdir()
    good.write_text('[{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 2}]')
    bad = tmp_path / "in" / "ascend_pytorch_profiler_3.db"
    bad.write_bytes(b"not sqlite at all")
    results = ingest(tmp_path / "w.db", [tmp_path / "in"], jobs=2)

    assert {r.path.name: r.status for r in results} == {"trace.json": "ok", "ascend_pytorch_profiler_3.db": "failed"}
    failed = next(r for r in results if r.status == "failed")
    assert failed.error == f"{bad}: byte 0: not an SQLite database (no 'SQLite format 3' header)"
    conn = sqlite3.connect(tmp_path / "w.db")
    assert conn.execute("SELECT kind, status, error FROM source ORDER BY id").fetchall() == [
        ("rank_db", "failed", failed.error), ("trace_json", "ok", None),
    ]
    assert conn.execute("SELECT name, dur FROM slice").fetchall() == [("a", 2000)]


def test_the_cli_takes_a_job_count_and_defaults_to_the_cores(runner, tmp_path):
    trace = tmp_path / "trace.json"
    trace.write_text('[{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 2}]')
    result = runner.invoke(cli, ["ingest", str(trace), "--db", str(tmp_path / "w.db"), "--jobs", "0"])
    assert result.exit_code == 2 and "--jobs" in result.output
    result = runner.invoke(cli, ["ingest", str(trace), "--db", str(tmp_path / "w.db"), "-j", "2"])
    assert result.exit_code == 0, result.output
    assert parts.default_jobs() >= 1
    assert "the cores" in runner.invoke(cli, ["ingest", "--help"]).output


def test_parts_are_written_beside_the_warehouse_and_removed(tmp_path, every_file_in_parts, monkeypatch):
    seen = []
    real_discard = parts.PartPool.discard

    def discard(self, part_path):
        seen.append((part_path.parent.parent, part_path.exists()))
        real_discard(self, part_path)

    monkeypatch.setattr(parts.PartPool, "discard", discard)
    trace = tmp_path / "in" / "trace.json"
    trace.parent.mkdir()
    trace.write_text('[{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 2}]')
    (tmp_path / "w").mkdir()
    (result,) = ingest(tmp_path / "w" / "w.db", [tmp_path / "in"], jobs=2)
    assert result.status == "ok"
    assert seen == [(tmp_path / "w", True)]
    assert [path.name for path in (tmp_path / "w").iterdir()] == ["w.db"]  # the parts folder is gone


def test_a_parts_folder_left_by_a_killed_ingest_is_not_read(tmp_path):
    leftover = tmp_path / f"{parts.PART_FOLDER_PREFIX}abc" / "part1.db"
    leftover.parent.mkdir()
    leftover.write_text("a part")
    trace = tmp_path / "trace.json"
    trace.write_text('[{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 2}]')
    assert list(ingest_frame.discover([tmp_path])) == [trace]


def test_stale_parts_folders_are_swept_and_reported(runner, tmp_path):
    """A parts folder whose ingest was killed (its owner is gone, or it names none) is removed by the
    next ingest, which says so; a live ingest's folder is left alone."""
    dead = subprocess.Popen(["true"])
    dead.wait()
    stale = tmp_path / f"{parts.PART_FOLDER_PREFIX}dead"
    stale.mkdir()
    (stale / parts.OWNER_FILE).write_text(str(dead.pid))
    (stale / "part1.db").write_bytes(b"x" * 2_000_000)
    live = tmp_path / f"{parts.PART_FOLDER_PREFIX}live"
    live.mkdir()
    (live / parts.OWNER_FILE).write_text(str(os.getpid()))
    trace = tmp_path / "in" / "trace.json"
    trace.parent.mkdir()
    trace.write_text('[{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 2}]')
    result = runner.invoke(cli, ["ingest", str(trace.parent), "--db", str(tmp_path / "w.db"), "-q"])
    assert result.exit_code == 0, result.output
    assert f"removed {stale}: the parts (2.0 MB) of an ingest that was killed" in result.output
    assert not stale.exists() and live.exists()


@pytest.mark.slow
def test_workers_die_with_a_killed_ingest(tmp_path):
    """SIGKILL of `warehouse ingest --jobs 2` while its workers hold large files: no worker survives."""
    from warehouse.synth.trace_json import write_trace

    for index in range(4):
        write_trace(tmp_path / "in" / f"rank{index}.json", 60_000, seed=index)
    ingest_cli = Path(sys.executable).parent / "warehouse"
    parent = subprocess.Popen([str(ingest_cli), "ingest", str(tmp_path / "in"), "--db", str(tmp_path / "w.db"),
                               "-q", "--jobs", "2"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    workers: set[int] = set()
    while time.monotonic() < deadline and len(workers) < 2:
        workers = _descendants(parent.pid) - {parent.pid}
        time.sleep(0.05)
    assert len(workers) >= 2, "the ingest never started its workers"
    parent.kill()
    parent.wait()
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and any(_alive(pid) for pid in workers):
        time.sleep(0.1)
    assert [pid for pid in workers if _alive(pid)] == []


def _descendants(pid: int) -> set[int]:
    """The process and every process below it (from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            children.setdefault(int(fields[1]), []).append(int(entry.name))
    found, todo = set(), [pid]
    while todo:
        current = todo.pop()
        found.add(current)
        todo.extend(children.get(current, []))
    return found


def _alive(pid: int) -> bool:
    """Running and not a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"
