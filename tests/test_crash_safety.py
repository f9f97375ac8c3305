"""A killed ingest leaves a consistent warehouse, and concurrent ingests do not corrupt it (DESIGN §8).

``warehouse ingest`` runs as a real process on a folder of trace JSON files of a few MB
each; it is SIGKILLed at seeded random moments, then run to completion. The warehouse
must then pass ``PRAGMA integrity_check`` and every audit, hold no partial source, and
hold exactly the rows of a clean run into a fresh warehouse.
"""

import json
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import factory
import pytest

from warehouse import audits, db, introspect
from warehouse.cli import cli

WAREHOUSE = str(Path(sys.executable).with_name("warehouse"))
FILES = 5
KILLS = 8


class TraceFileFactory(factory.Factory):
    """A bare-array trace JSON file: threads of top-level X slices, each with a nested child,
    counter samples and flow arrows between two threads; seeded, so the same seed writes the same bytes."""

    class Meta:
        model = dict

    path = None
    seed = factory.Sequence(int)
    threads = 4
    slices_per_thread = 3000

    @classmethod
    def _create(cls, model_class, path, seed, threads, slices_per_thread):
        rng = random.Random(seed)
        events = [{"ph": "M", "name": "process_name", "pid": seed, "tid": 0, "args": {"name": f"rank{seed}"}}]
        for tid in range(threads):
            for i in range(slices_per_thread):
                ts = 1_700_000_000_000_000 + i * 100
                dur = rng.randint(20, 90)
                events.append({"ph": "X", "name": f"aten::op{rng.randint(0, 60)}", "cat": "cpu_op", "pid": seed,
                               "tid": tid, "ts": ts, "dur": dur, "args": {"Sequence number": i, "seed": seed}})
                events.append({"ph": "X", "name": "child", "cat": "cpu_op", "pid": seed, "tid": tid,
                               "ts": ts + 5, "dur": rng.randint(1, 14)})
                if i % 50 == 0:
                    events.append({"ph": "C", "name": "memory", "pid": seed, "tid": tid, "ts": ts,
                                   "args": {"allocated": rng.randint(0, 1 << 30)}})
                if tid == 0 and i % 40 == 0:
                    events.append({"ph": "s", "name": "fwdbwd", "cat": "fwdbwd", "id": i, "pid": seed, "tid": 0, "ts": ts + 6})
                    events.append({"ph": "f", "bp": "e", "name": "fwdbwd", "cat": "fwdbwd", "id": i, "pid": seed,
                                   "tid": 1, "ts": ts + 6})
        Path(path).write_text(json.dumps(events))
        return Path(path)


@pytest.fixture(scope="module")
def trace_folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("traces")
    for n in range(FILES):
        TraceFileFactory(path=folder / f"rank{n}_trace_view.json", seed=n + 1)
    return folder


@pytest.fixture(scope="module")
def clean_run(trace_folder, tmp_path_factory):
    """A clean ingest into a fresh warehouse: its contents and how long it took."""
    path = tmp_path_factory.mktemp("clean") / "warehouse.db"
    started = time.monotonic()
    result = subprocess.run([WAREHOUSE, "ingest", str(trace_folder), "--db", str(path), "-q"], capture_output=True, text=True)
    elapsed = time.monotonic() - started
    assert result.returncode == 0, result.stderr
    return contents(path), elapsed


def contents(path):
    """What a warehouse holds, independent of row ids: rows per (table, input file), and every slice."""
    conn = db.connect_readonly(path)
    paths = dict(conn.execute("SELECT id, path FROM source"))
    per_table = {}
    for table in introspect.tables_with_column(conn, "source_id"):
        for source_id, count in conn.execute(f'SELECT source_id, count(*) FROM "{table}" GROUP BY source_id'):
            per_table[(table, paths.get(source_id, source_id))] = count
    slices = conn.execute(
        "SELECT src.path, t.tid, s.ts, s.dur, s.name, s.depth, p.ts, s.source_row FROM slice AS s "
        "JOIN source AS src ON src.id = s.source_id JOIN thread AS t ON t.id = s.thread_id "
        "LEFT JOIN _slice AS p ON p.id = s.parent_id ORDER BY 1, 2, 3, 4 DESC, 8"
    ).fetchall()
    sources = conn.execute("SELECT path, kind, status, row_count FROM source ORDER BY path").fetchall()
    conn.close()
    return {"sources": sources, "per_table": per_table, "slices": slices}


def schema_version(path):
    conn = sqlite3.connect(path)
    try:
        return db.schema_version(conn)
    finally:
        conn.close()


def assert_sound(path):
    """The warehouse opens, passes PRAGMA integrity_check and every audit (among them: every
    source in a final state, every source's row_count equal to the rows it holds); its contents."""
    report = audits.check_warehouse(path)
    assert report.integrity == ["ok"]
    assert report.problems == []
    assert {a.audit.name for a in report.audits} >= {"source_final_state", "source_row_count_matches", "fact_source_ok"}
    return contents(path)


def test_the_clean_run_ingests_every_file(clean_run, trace_folder):
    clean, _ = clean_run
    assert [(Path(p).name, kind, status) for p, kind, status, _ in clean["sources"]] == [
        (f"rank{n}_trace_view.json", "trace_json", "ok") for n in range(FILES)
    ]
    # 4 threads x 3000 parents, each with one child, per file
    assert len(clean["slices"]) == FILES * 4 * 3000 * 2
    assert clean["per_table"][("flow", str(trace_folder / "rank0_trace_view.json"))] == 3000 // 40


@pytest.mark.slow
def test_sigkill_at_random_moments_then_rerun(trace_folder, clean_run, tmp_path):
    clean, clean_seconds = clean_run
    path = tmp_path / "warehouse.db"
    command = [WAREHOUSE, "ingest", str(trace_folder), "--db", str(path), "-q"]
    rng = random.Random(20261122)
    killed = 0
    for _ in range(KILLS):
        # half the attempts re-ingest everything (--force), so kills also land while rows are replaced
        force = ["--force"] if rng.random() < 0.5 else []
        process = subprocess.Popen(command + force, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            # the moment to kill at: somewhere within what a whole clean run takes
            process.wait(timeout=rng.uniform(0.02, 0.9 * clean_seconds))
        except subprocess.TimeoutExpired:
            process.send_signal(signal.SIGKILL)
            killed += 1
        process.wait()
        assert process.returncode in (0, -signal.SIGKILL), process.stderr.read()
        process.stderr.close()
        # a kill before the schema landed leaves no warehouse or an empty one; otherwise a sound one
        if path.exists() and schema_version(path) != 0:
            assert_sound(path)
    assert killed >= 2
    final = subprocess.run(command, capture_output=True, text=True)
    assert final.returncode == 0, final.stderr
    assert assert_sound(path) == clean
    check = subprocess.run([WAREHOUSE, "check", "--db", str(path)], capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr


@pytest.mark.slow
def test_two_ingests_at_once_into_a_new_warehouse(trace_folder, clean_run, tmp_path):
    clean, _ = clean_run
    path = tmp_path / "warehouse.db"
    command = [WAREHOUSE, "ingest", str(trace_folder), "--db", str(path), "-q"]
    first = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    second = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    outputs = [process.communicate() for process in (first, second)]
    # each waits for the other's write lock (busy timeout) instead of failing
    assert (first.returncode, second.returncode) == (0, 0), outputs
    assert assert_sound(path) == clean


@pytest.mark.slow
def test_readers_see_a_sound_warehouse_while_an_ingest_runs(trace_folder, clean_run, tmp_path):
    clean, _ = clean_run
    path = tmp_path / "warehouse.db"
    db.connect(path).close()  # the schema in place: from here on every snapshot must be sound
    ingest = subprocess.Popen([WAREHOUSE, "ingest", str(trace_folder), "--db", str(path), "-q"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    sources_seen = set()
    while ingest.poll() is None:
        # each check reads one snapshot: files are in it whole or not at all
        found = assert_sound(path)
        sources_seen.add(len(found["sources"]))
    assert ingest.wait() == 0, ingest.stderr.read()
    ingest.stderr.close()
    assert sources_seen - {FILES}, "no check ran while the ingest was under way"
    assert assert_sound(path) == clean


def test_a_writer_holding_the_lock_too_long_fails_the_ingest_clearly(runner, warehouse_path, warehouse_db, monkeypatch, tmp_path):
    trace = TraceFileFactory(path=tmp_path / "trace.json", seed=9, threads=1, slices_per_thread=3)
    monkeypatch.setattr(db, "BUSY_TIMEOUT_S", 0.05)
    warehouse_db.execute("BEGIN IMMEDIATE")
    result = runner.invoke(cli, ["ingest", str(trace), "--db", str(warehouse_path)])
    assert result.exit_code == 1
    assert result.output == (
        f"Error: {trace}: the warehouse is busy: another process held its write lock for 0.05 s "
        "(database is locked); nothing was written, run the ingest again\n"
    )
    warehouse_db.execute("ROLLBACK")
    assert warehouse_db.execute("SELECT count(*) FROM source").fetchone() == (0,)
    assert runner.invoke(cli, ["ingest", str(trace), "--db", str(warehouse_path)]).exit_code == 0
    assert warehouse_db.execute("SELECT status, row_count > 0 FROM source").fetchall() == [("ok", 1)]


def test_migrations_applied_by_another_process_meanwhile_count_as_done(warehouse_path, monkeypatch):
    # the race of two ingests creating one warehouse: both saw version 0, one migrated first
    ours = db.connect(warehouse_path, migrate_schema=False)
    seen = db.check_version(ours, label="ours")
    db.connect(warehouse_path).close()  # the other process
    real_check = db.check_version
    calls = iter([seen])
    monkeypatch.setattr(db, "check_version", lambda conn, **kw: next(calls, None) or real_check(conn, **kw))
    assert db.migrate(ours) == []
    assert db.schema_version(ours) == db.available_migrations()[-1].version


def test_switching_to_wal_waits_for_a_writer_creating_the_warehouse(warehouse_path, monkeypatch):
    # another process is creating the file (still in rollback-journal mode, write lock held):
    # SQLite refuses the switch to WAL at once, without calling the busy handler
    creator = sqlite3.connect(warehouse_path, isolation_level=None)
    creator.execute("BEGIN IMMEDIATE")
    creator.execute("CREATE TABLE being_created (x)")
    retried = threading.Event()
    real_sleep = time.sleep

    def sleep(seconds):
        retried.set()
        real_sleep(seconds)

    monkeypatch.setattr(db.time, "sleep", sleep)
    opened = []
    opener = threading.Thread(target=lambda: opened.append(db.connect(warehouse_path, migrate_schema=False)))
    opener.start()
    assert retried.wait(timeout=30)
    creator.execute("COMMIT")
    opener.join()
    (conn,) = opened
    assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    conn.close()
    creator.close()
