"""The progress line of ``warehouse ingest`` (warehouse/ingest/progress_line.py): on a terminal it names
the file and how far its bytes were read; with ``--quiet`` or off a terminal, nothing but what the
ingest always printed.

The CLI runs as a real process on a pseudo-terminal (the pty module), as a user's shell runs it.
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from factories.trace_json import EventFactory, TraceFileFactory

from warehouse.ingest import parts, progress_line
from warehouse.sources.kit import csv_bulk, duck
from warehouse.sources.base import READ_STEP_BYTES, observe_reads, open_binary

WAREHOUSE = [sys.executable, "-m", "warehouse"]
#: wide enough that the line is never cut (a pty starts with no size: the fallback is 80 columns)
WIDE = {**os.environ, "COLUMNS": "300"}
#: the seconds column of the results table, which differs between two runs
SECONDS = re.compile(r"\b\d+\.\d\d\b")


def on_terminal(args: list[str]) -> str:
    """What ``warehouse`` writes to a terminal (stdout and stderr both on the pty), as text with
    the terminal's CRLF line ends read back as LF."""
    controller, terminal = os.openpty()
    process = subprocess.Popen([*WAREHOUSE, *args], stdin=terminal, stdout=terminal, stderr=terminal, env=WIDE)
    os.close(terminal)
    output = b""
    while True:
        try:
            chunk = os.read(controller, 1 << 16)
        except OSError:  # EIO: the process closed the terminal's last descriptor
            break
        if not chunk:
            break
        output += chunk
    os.close(controller)
    assert process.wait() == 0
    return output.decode().replace("\r\n", "\n")


def off_terminal(args: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run([*WAREHOUSE, *args], capture_output=True, text=True, env=WIDE, check=True)


def after_the_line(output: str) -> str:
    """What a terminal shows once the progress line is wiped: the text after its last wipe."""
    return output.rpartition(progress_line.WIPE)[2]


def test_a_terminal_sees_the_file_and_its_bytes_read_then_the_same_table_as_off_a_terminal(tmp_path):
    trace = TraceFileFactory(path=tmp_path / "run" / "trace_view.json", events=EventFactory.create_batch(40))
    size_mb = f"{trace.stat().st_size / 1e6:.1f} MB"

    shown = on_terminal(["ingest", str(trace.parent), "--db", str(tmp_path / "a.db"), "--jobs", "1"])
    piped = off_terminal(["ingest", str(trace.parent), "--db", str(tmp_path / "b.db"), "--jobs", "1"])

    lines = shown.split(progress_line.WIPE)
    assert any(line.startswith(f"ingesting 0/1 files | run/trace_view.json: ingesting, 100 % of {size_mb} read, ")
               for line in lines)
    assert not any("hashing, 100 %" in line for line in lines)  # a file hashed leaves the line
    assert "ingesting 1/1 files" in lines
    assert piped.stderr == ""  # off a terminal: no line at all
    table = SECONDS.sub("S", piped.stdout)
    assert "ok        trace_json  42" in table  # the 40 slices, their process and their thread
    assert SECONDS.sub("S", after_the_line(shown)) == table  # the line leaves nothing behind on the terminal


def test_quiet_on_a_terminal_prints_nothing(tmp_path):
    trace = TraceFileFactory(path=tmp_path / "run" / "trace_view.json")

    assert on_terminal(["ingest", str(trace), "--db", str(tmp_path / "w.db"), "--jobs", "1", "--quiet"]) == ""


@pytest.mark.slow
def test_a_file_read_by_a_worker_is_reported_by_the_worker_to_the_line(tmp_path):
    # a file of at least MIN_PART_BYTES goes to a worker process with --jobs 2: only the worker reads it
    events = EventFactory.create_batch(parts.MIN_PART_BYTES // 100)
    trace = TraceFileFactory(path=tmp_path / "run" / "trace_view.json", events=events)
    assert trace.stat().st_size >= parts.MIN_PART_BYTES

    shown = on_terminal(["ingest", str(trace), "--db", str(tmp_path / "w.db"), "--jobs", "2"])

    lines = shown.split(progress_line.WIPE)
    size_mb = f"{trace.stat().st_size / 1e6:.1f} MB"
    # the parent only hashes the file and copies the worker's part in: the bytes ingested were the worker's
    assert any(line.startswith(f"ingesting 0/1 files | run/trace_view.json: ingesting, 100 % of {size_mb} read, ")
               for line in lines)
    assert f"ok        trace_json  {len(events) + 2}" in after_the_line(shown)


def read_whole(path) -> None:
    with open_binary(path) as read:
        assert len(read.read()) == path.stat().st_size


def test_the_line_follows_each_step_of_a_read_of_a_file_in_hand(tmp_path, monkeypatch):
    monkeypatch.setattr(progress_line, "REDRAW_S", 0)  # every report drawn
    monkeypatch.setenv("COLUMNS", "300")
    path = tmp_path / "run" / "kernel_details.csv"
    path.parent.mkdir()
    path.write_bytes(b"x" * (3 * READ_STEP_BYTES))
    sidecar = tmp_path / "run" / "profiler_info.json"
    sidecar.write_bytes(b"{}")
    stream = io.StringIO()

    with progress_line.shown(stream, "ingesting", 2, enabled=True):
        read_whole(sidecar)  # read beside the file in hand (its rank): not on the line
        progress_line.doing(path, "hashing")
        read_whole(path)
        progress_line.doing(path, "ingesting")
        read_whole(path)
        progress_line.done(path)

    file = "ingesting 0/2 files | run/kernel_details.csv"
    assert stream.getvalue().split(progress_line.WIPE) == [
        "",
        "ingesting 0/2 files",
        f"{file}: hashing, 0 s",
        f"{file}: hashing, 33 % of 3.1 MB read, 0 s",
        f"{file}: hashing, 66 % of 3.1 MB read, 0 s",
        "ingesting 0/2 files",  # hashed: off the line
        f"{file}: ingesting, 0 s",
        f"{file}: ingesting, 33 % of 3.1 MB read, 0 s",
        f"{file}: ingesting, 66 % of 3.1 MB read, 0 s",
        f"{file}: ingesting, 100 % of 3.1 MB read, 0 s",
        "ingesting 1/2 files",
        "",
    ]
    assert observe_reads(None) is None  # the reads are left unobserved after the line


def test_a_statement_of_duckdb_reading_a_file_tells_its_bytes_as_it_gets_on(tmp_path, warehouse_db, monkeypatch):
    monkeypatch.setattr(duck, "PROGRESS_POLL_S", 0.001)
    path = tmp_path / "numbers.csv"
    path.write_text("a,b\n" + "".join(f"{n},{n * 7}\n" for n in range(500_000)), encoding="ascii")
    size = path.stat().st_size
    told = []
    observe_reads(lambda at, given, whole: told.append((at, given, whole)))
    try:
        with duck.session(warehouse_db, csv_bulk.CELLS_SQL) as (engine, _):
            with duck.reading(engine, path):
                engine.execute(f"CREATE TABLE numbers AS SELECT a FROM read_csv({duck.literal(str(path))}, header = true, "
                               "auto_detect = false, columns = {'a': 'VARCHAR', 'b': 'VARCHAR'}, buffer_size = 262144)")
            assert engine.execute("SELECT count(*), max(a::BIGINT) FROM numbers").fetchone() == (500_000, 499_999)
            engine.execute("DROP TABLE numbers")
    finally:
        observe_reads(None)
    assert {at for at, _, _ in told} == {path} and {whole for _, _, whole in told} == {size}
    given = [given for _, given, _ in told]
    assert given[-1] == size and given == sorted(given) and len(set(given)) == len(given)
    assert 0 < given[0] < size, "nothing told while DuckDB read the file"


def test_a_statement_of_duckdb_tells_nothing_when_no_one_observes(tmp_path, warehouse_db):
    with duck.session(warehouse_db, csv_bulk.CELLS_SQL) as (engine, _):
        with duck.reading(engine, tmp_path / "not there.csv"):  # not even looked at
            assert engine.execute("SELECT 41 + 1").fetchone() == (42,)


def test_no_line_no_observer(tmp_path):
    stream = io.StringIO()
    with progress_line.shown(stream, "ingesting", 1, enabled=False):
        progress_line.doing(tmp_path, "ingesting")
        assert observe_reads(None) is None
        progress_line.done(tmp_path)
    assert stream.getvalue() == ""
