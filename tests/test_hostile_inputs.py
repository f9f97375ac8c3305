"""Small hostile inputs (issue 23, items 4, 5 and 8): each fails (or is read) with a bounded outcome.

Every hostile file is written small by the factories (tests/factories/hostile.py: a gzip stream
of 2 GB of spaces in ~2 MB, a FIFO, a link to /dev/zero, a rank db altered after RankDbFactory
wrote it). Each hostile ingest runs in a fresh child interpreter (the frame's own code,
:func:`warehouse.ingest.ingest_paths`) under a wall-clock timeout, and reports its results, its
time and its peak memory (``VmHWM``, which starts afresh at exec). Every case asserts:

- the outcome: ``failed`` with a one-line reason that starts with the file and names the place
  (table and field, event, block, line, byte), or ``ok`` where the input is read correctly;
- nothing already in the warehouse is lost (an earlier good input keeps its rows);
- ``warehouse check`` (integrity, schema, every audit) passes afterwards;
- time and memory under generous caps (the unbounded code took minutes and gigabytes).
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.factories.analysis_db import AnalysisDbFactory
from tests.factories.hostile import (
    alter_db,
    block_header,
    endless_view,
    fifo,
    gzip_repeating,
    gzip_segments,
    link_to,
    op_profile_block,
)
from tests.factories.rank_db import RankDbFactory
from tests.factories.text_exports import KernelDetailsFactory
from tests.factories.trace_json import EventFactory, TraceFileFactory
from warehouse import audits, db, ingest

#: generous caps on one hostile ingest (the child interpreter, imports and migrations included)
MAX_SECONDS = 30
MAX_PEAK_KB = 700 * 1024
#: the address space (RLIMIT_AS) a child gets where an unbounded read would take gigabytes: the child
#: itself maps ~170 MB, so past this an unbounded read fails (MemoryError) instead of filling the machine
CHILD_ADDRESS_SPACE = 1 << 30
#: the peak memory (VmHWM) those ingests stay under when bounded (measured: about 60 MB)
BOUNDED_PEAK_KB = 200 * 1024

CHILD = """
import json, os, resource, sys, time
if os.environ.get("HOSTILE_MAX_ADDRESS_SPACE"):  # RLIMIT_AS: past it an allocation fails, nothing swaps
    resource.setrlimit(resource.RLIMIT_AS, (int(os.environ["HOSTILE_MAX_ADDRESS_SPACE"]),) * 2)
from warehouse import db, ingest
conn = db.connect(sys.argv[1])
started = time.monotonic()
results = ingest.ingest_paths(conn, sys.argv[2:])
elapsed = time.monotonic() - started
detail = {r.source_id: conn.execute("SELECT detail FROM source WHERE id = ?", (r.source_id,)).fetchone()[0]
          for r in results if r.source_id}
conn.close()
with open("/proc/self/status") as status:
    peaks = {line.split()[0]: int(line.split()[1]) for line in status if line.startswith(("VmHWM:", "VmPeak:"))}
peak_kb, address_space_kb = peaks["VmHWM:"], peaks["VmPeak:"]
print(json.dumps({"elapsed": elapsed, "peak_kb": peak_kb, "address_space_kb": address_space_kb, "results": [
    {"path": str(r.path), "status": r.status, "error": r.error, "kind": r.kind,
     "detail": detail.get(r.source_id)} for r in results]}))
"""


def ingest_in_child(warehouse: Path, *paths: Path, env: dict | None = None, timeout: float = 120,
                    max_address_space: int | None = None) -> dict:
    """Ingest ``paths`` into ``warehouse`` in a fresh interpreter; its results, time and peak memory.

    ``timeout`` is the hang guard (a hang fails the test); ``max_address_space`` caps the child's
    memory (RLIMIT_AS), so an unbounded read fails instead of filling the machine.
    """
    started = time.monotonic()
    limit = {"HOSTILE_MAX_ADDRESS_SPACE": str(max_address_space)} if max_address_space else {}
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(warehouse), *map(str, paths)],
        capture_output=True, text=True, timeout=timeout, env={**os.environ, **(env or {}), **limit},
        cwd=Path(__file__).resolve().parent.parent,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout)
    report["wall"] = time.monotonic() - started
    report["by_path"] = {result["path"]: result for result in report["results"]}
    return report


def assert_bounded(report: dict) -> None:
    assert report["wall"] < MAX_SECONDS, report["wall"]
    assert report["peak_kb"] < MAX_PEAK_KB, report["peak_kb"]


def assert_failed(report: dict, path: Path, *places: str) -> str:
    """``path`` failed with one line that starts with it and names every one of ``places``."""
    result = report["by_path"][str(path)]
    assert result["status"] == "failed", result
    reason = result["error"]
    assert "\n" not in reason and len(reason) <= ingest.MAX_REASON_CHARS + len(str(path)) + 2, reason
    assert reason.startswith(str(path)), reason
    for place in places:
        assert place in reason, (place, reason)
    assert "Traceback" not in reason and "internal error" not in reason, reason
    return reason


def assert_sound(warehouse: Path) -> None:
    """``warehouse check``: integrity, schema version and every audit pass."""
    report = audits.check_warehouse(warehouse)
    assert report.integrity == ["ok"]
    assert report.problems == [], report.problems


@pytest.fixture
def kept(tmp_path):
    """A warehouse already holding a good input; call it afterwards to check nothing of it was lost."""
    warehouse = tmp_path / "warehouse.db"
    good = TraceFileFactory(path=tmp_path / "good" / "trace_view.json", events=EventFactory.create_batch(5))
    conn = db.connect(warehouse)
    [result] = ingest.ingest_paths(conn, [good])
    assert result.status == "ok"
    before = conn.execute("SELECT id, status, row_count FROM source").fetchall()
    slices = conn.execute("SELECT count(*) FROM slice").fetchone()
    conn.close()

    def still_there():
        conn = db.connect(warehouse)
        try:
            assert conn.execute(
                "SELECT id, status, row_count FROM source WHERE id = ?", (before[0][0],)).fetchall() == before
            assert conn.execute("SELECT count(*) FROM slice WHERE source_id = ?", (before[0][0],)).fetchone() == slices
        finally:
            conn.close()
        assert_sound(warehouse)

    still_there.warehouse = warehouse
    return still_there


def source_rows(warehouse: Path, sql: str, *params):
    conn = db.connect(warehouse)
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


# --- files that are not regular files ------------------------------------------------------------------


def test_fifo_socket_and_device_links_fail_at_once_and_never_block(kept, tmp_path):
    folder = tmp_path / "inputs"
    pipe = fifo(folder / "trace_view.json")
    zero = link_to(folder / "kernel_details.csv", "/dev/zero")
    sock_path = folder / "s.sock"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(sock_path))
    good = TraceFileFactory(path=folder / "rank1" / "trace_view.json")
    try:
        report = ingest_in_child(kept.warehouse, folder)
    finally:
        server.close()
    assert_bounded(report)
    assert report["elapsed"] < 10
    assert_failed(report, pipe, "not a regular file", "FIFO")
    assert_failed(report, zero, "not a regular file", "character device")
    assert_failed(report, sock_path, "not a regular file", "socket")
    assert report["by_path"][str(good)]["status"] == "ok"
    kept()


# --- files read beside an input (issue 32 case 5): the rank layout's profiler_info and info.json ---------


def rank_of_source(warehouse: Path, path: Path):
    return source_rows(warehouse, "SELECT status, rank_id FROM source WHERE path = ?", str(path))


def test_a_fifo_named_profiler_info_beside_a_trace_never_blocks_its_ingest(kept, tmp_path):
    # the trace's rank comes from the folder's profiler_info_0.json: reading a FIFO there blocked for good
    folder = tmp_path / "run" / "rank0"
    pipe = fifo(folder / "profiler_info_0.json")
    trace = TraceFileFactory(path=folder / "trace_view.json")
    report = ingest_in_child(kept.warehouse, tmp_path / "run", timeout=60)
    assert_bounded(report)
    assert_failed(report, pipe, "not a regular file (a FIFO)")
    assert report["by_path"][str(trace)]["status"] == "ok"
    assert rank_of_source(kept.warehouse, trace) == [("ok", 0)]  # the N of its name, as the profiler wrote it
    kept()


def test_a_6_gb_sparse_profiler_info_is_refused_from_its_size(kept, tmp_path):
    # 6 GB on disk, no block of it allocated: reading it whole took the unbounded ingest to 6.3 GB
    folder = tmp_path / "run" / "rank3"
    sidecar = folder / "profiler_info_3.json"
    folder.mkdir(parents=True)
    with sidecar.open("wb") as out:
        out.write(b'{"rank_id": 7, "config": {"common_config": {}}}')
        out.truncate(6 << 30)
    trace = TraceFileFactory(path=folder / "trace_view.json")
    report = ingest_in_child(kept.warehouse, trace, max_address_space=CHILD_ADDRESS_SPACE)
    assert_bounded(report)
    assert report["peak_kb"] < BOUNDED_PEAK_KB, report["peak_kb"]
    assert report["by_path"][str(trace)]["status"] == "ok"
    assert rank_of_source(kept.warehouse, trace) == [("ok", 3)]  # its name's N: its rank_id was never read
    kept()


def test_a_profiler_info_past_its_cap_fails_naming_it_and_its_rank_still_ingests(kept, tmp_path):
    folder = tmp_path / "run" / "rank1"
    folder.mkdir(parents=True)
    sidecar = folder / "profiler_info_1.json"
    sidecar.write_text('{"config": {"common_config": {}}, "rank_id": 4, "pad": "' + " " * (2 << 20) + '"}')
    trace = TraceFileFactory(path=folder / "trace_view.json")
    report = ingest_in_child(kept.warehouse, tmp_path / "run", env={"WAREHOUSE_MAX_SIDECAR_BYTES": str(1 << 20)})
    assert_failed(report, sidecar, f"{sidecar.stat().st_size} bytes, over the limit of {1 << 20}",
                  "WAREHOUSE_MAX_SIDECAR_BYTES", "nothing of it was read")
    assert rank_of_source(kept.warehouse, trace) == [("ok", 1)]
    kept()


def test_dev_zero_links_named_info_json_and_profiler_metadata_are_never_read(kept, tmp_path):
    # msprof's host/info.json is read for the rank of every file in its PROF_ folder: /dev/zero never ends
    prof = tmp_path / "PROF_000001_20250101"
    link_to(prof / "host" / "info.json", "/dev/zero")
    metadata = link_to(prof / "profiler_metadata.json", "/dev/zero")
    trace = TraceFileFactory(path=prof / "mindstudio_profiler_output" / "msprof_1.json")
    report = ingest_in_child(kept.warehouse, prof, timeout=60, max_address_space=CHILD_ADDRESS_SPACE)
    assert_bounded(report)
    assert report["peak_kb"] < BOUNDED_PEAK_KB, report["peak_kb"]
    assert_failed(report, metadata, "not a regular file (a character device)")
    assert report["by_path"][str(trace)]["status"] == "ok"
    kept()


def test_discover_opens_nothing(tmp_path):
    pipe = fifo(tmp_path / "a" / "pipe.json")
    link_to(tmp_path / "a" / "zero.csv")
    found = list(ingest.discover([tmp_path / "a"]))  # would block on the FIFO if it opened it
    assert pipe in found and len(found) == 2


# --- rank db -------------------------------------------------------------------------------------------


def rank_db(tmp_path, rank_id: int = 0, *statements: str):
    written = RankDbFactory(path=tmp_path / f"rank{rank_id}" / f"ascend_pytorch_profiler_{rank_id}.db",
                            rank_id=rank_id)
    if statements:
        alter_db(written.path, *statements)
    return written


def test_a_view_over_an_endless_cte_is_refused_naming_it(kept, tmp_path):
    written = rank_db(tmp_path, 1)
    endless_view(written.path, "STRING_IDS")
    report = ingest_in_child(kept.warehouse, written.path)
    assert_bounded(report)
    assert_failed(report, written.path, "STRING_IDS", "is a view, not a table")
    kept()


def test_a_virtual_table_where_a_table_is_expected_is_refused(kept, tmp_path):
    written = rank_db(tmp_path, 1)
    try:
        alter_db(written.path, "DROP TABLE TASK", "CREATE VIRTUAL TABLE TASK USING fts5(startNs, endNs)")
    except sqlite3.OperationalError:
        pytest.skip("this SQLite has no fts5")
    report = ingest_in_child(kept.warehouse, written.path)
    assert_failed(report, written.path, "TASK", "virtual table")
    kept()


def test_an_analysis_db_view_is_refused_naming_it(kept, tmp_path):
    written = AnalysisDbFactory(path=tmp_path / "rank0_ascend_pt" / "ASCEND_PROFILER_OUTPUT" / "analysis.db")
    endless_view(written.path, "StepTraceTime", ("step",))
    report = ingest_in_child(kept.warehouse, written.path)
    assert_bounded(report)
    assert_failed(report, written.path, "StepTraceTime", "is a view")
    kept()


def test_the_deadline_stops_an_ingest_with_one_line(kept, tmp_path):
    written = rank_db(tmp_path, 1)
    report = ingest_in_child(kept.warehouse, written.path, env={"WAREHOUSE_INGEST_TIME_LIMIT_S": "0.000001"})
    assert_failed(report, written.path, "WAREHOUSE_INGEST_TIME_LIMIT_S", "nothing of this file was written")
    kept()


@pytest.mark.parametrize(("statement", "places"), [
    ("UPDATE TASK SET startNs = 'abc' WHERE rowid = (SELECT min(rowid) FROM TASK)",
     ("TASK", "startNs", "'abc'", "not a 64-bit integer")),
    ("UPDATE TASK SET endNs = 1e300 WHERE rowid = (SELECT min(rowid) FROM TASK)",
     ("TASK", "endNs", "real", "not a 64-bit integer")),
    ("UPDATE PYTORCH_API SET startNs = '1e300' WHERE rowid = (SELECT min(rowid) FROM PYTORCH_API)",
     ("PYTORCH_API", "startNs", "not a 64-bit integer")),
    ("UPDATE CANN_API SET endNs = startNs - 5 WHERE rowid = (SELECT min(rowid) FROM CANN_API)",
     ("CANN_API", "endNs", "before startNs")),
    ("UPDATE STEP_TIME SET id = '<img src=x onerror=alert(1)>' WHERE rowid = (SELECT min(rowid) FROM STEP_TIME)",
     ("STEP_TIME", "id", "not a 64-bit integer")),
    ("UPDATE STRING_IDS SET value = CAST(X'6B65726E656CFF' AS TEXT) WHERE rowid = (SELECT min(rowid) FROM STRING_IDS)",
     ("STRING_IDS", "value", "not UTF-8")),
    ("UPDATE STRING_IDS SET value = X'00FF' WHERE rowid = (SELECT min(rowid) FROM STRING_IDS)",
     ("STRING_IDS", "value", "blob")),
])
def test_wrongly_typed_rank_db_values_fail_naming_table_and_field(kept, tmp_path, statement, places):
    written = rank_db(tmp_path, 1, statement)
    report = ingest_in_child(kept.warehouse, written.path)
    assert_bounded(report)
    assert_failed(report, written.path, *places)
    kept()


def test_a_string_past_the_limit_fails(kept, tmp_path):
    written = rank_db(tmp_path, 1, "UPDATE STRING_IDS SET value = printf('%.*c', 5000, 'k') "
                                   "WHERE rowid = (SELECT min(rowid) FROM STRING_IDS)")
    report = ingest_in_child(kept.warehouse, written.path, env={"WAREHOUSE_MAX_STRING_BYTES": "4096"})
    assert_failed(report, written.path, "STRING_IDS", "5000 bytes", "WAREHOUSE_MAX_STRING_BYTES")
    kept()


def test_an_extreme_rowid_is_renumbered_and_later_files_still_go_in(kept, tmp_path):
    extreme = rank_db(tmp_path, 1, "INSERT INTO COMMUNICATION_OP (opName, startNs, endNs, connectionId, groupName, relay, retry, "
                      "dataType, algType, count, opType) SELECT opName, startNs, endNs, connectionId, groupName, "
                      "relay, retry, dataType, algType, count, opType FROM COMMUNICATION_OP",
                      "UPDATE COMMUNICATION_OP SET rowid = 9223372036854675807 "  # 2**63 - 100001
                      "WHERE rowid = (SELECT max(rowid) FROM COMMUNICATION_OP)")
    later = rank_db(tmp_path, 2)
    report = ingest_in_child(kept.warehouse, extreme.path, later.path)
    assert_bounded(report)
    first, second = report["by_path"][str(extreme.path)], report["by_path"][str(later.path)]
    assert first["status"] == "ok", first
    assert second["status"] == "ok", second
    assert json.loads(first["detail"])["renumbered"]["tables"] == ["COMMUNICATION_OP"]
    (largest,) = source_rows(kept.warehouse, "SELECT max(id) FROM _slice")[0]
    assert largest < 1_000_000
    hccl = source_rows(kept.warehouse, "SELECT count(*) FROM communication_op c JOIN source s ON s.id = c.source_id "
                                       "WHERE s.path = ?", str(extreme.path))
    assert hccl == [(len(extreme.rows("COMMUNICATION_OP")) + 1,)]
    kept()


def test_a_rank_db_with_a_wal_is_read_with_its_committed_rows(kept, tmp_path):
    written = rank_db(tmp_path, 1)
    writer = sqlite3.connect(written.path)
    writer.execute("PRAGMA journal_mode = WAL")
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    with writer:
        writer.execute("INSERT INTO PYTORCH_API SELECT * FROM PYTORCH_API LIMIT 1")
    try:
        wal = Path(f"{written.path}-wal")
        assert wal.stat().st_size > 0
        before = {p.name: p.read_bytes() for p in written.path.parent.iterdir()}
        report = ingest_in_child(kept.warehouse, written.path)
        after = {p.name: p.read_bytes() for p in written.path.parent.iterdir()}
    finally:
        writer.close()
    result = report["by_path"][str(written.path)]
    assert result["status"] == "ok", result
    assert after == before  # nothing written beside the input
    count = source_rows(kept.warehouse, "SELECT count(*) FROM pytorch_api p JOIN source s ON s.id = p.source_id "
                                        "WHERE s.path = ?", str(written.path))
    assert count == [(len(written.rows("PYTORCH_API")) + 1,)]
    kept()


# --- trace JSON -------------------------------------------------------------------------------------------

EVENT_A = b'{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1}'
EVENT_B = b'{"ph":"X","name":"b","pid":1,"tid":1,"ts":2,"dur":1}'


@pytest.mark.slow  # gigabytes streamed or megabytes built: seconds
def test_two_gb_of_spaces_between_two_events_fail_fast_in_bounded_memory(kept, tmp_path):
    trace = gzip_repeating(tmp_path / "spaces" / "trace_view.json.gz", b"[" + EVENT_A + b",", b" ", 2 << 30,
                           EVENT_B + b"]")
    assert trace.stat().st_size < 4 << 20
    report = ingest_in_child(kept.warehouse, trace)
    assert_bounded(report)
    assert_failed(report, trace, "byte ", "WAREHOUSE_MAX_EVENT_BYTES")
    kept()


@pytest.mark.slow  # gigabytes streamed or megabytes built: seconds
def test_a_300_mb_name_fails_at_the_event_cap(kept, tmp_path):
    trace = gzip_repeating(tmp_path / "name" / "trace_view.json.gz", b'[{"ph":"X","name":"', b"k", 300 << 20,
                           b'","pid":1,"tid":1,"ts":1,"dur":1}]')
    report = ingest_in_child(kept.warehouse, trace)
    assert_bounded(report)
    assert_failed(report, trace, "WAREHOUSE_MAX_EVENT_BYTES")
    kept()


def test_a_name_past_the_string_cap_fails_naming_the_event(kept, tmp_path):
    trace = TraceFileFactory(path=tmp_path / "long" / "trace_view.json",
                             events=[EventFactory(), EventFactory(name="k" * (2 << 20))])
    report = ingest_in_child(kept.warehouse, trace)
    assert_bounded(report)
    assert_failed(report, trace, "event 1", "WAREHOUSE_MAX_STRING_BYTES")
    kept()


@pytest.mark.parametrize("ts", ["1e999000", "9" * 5000 + ".5", "-1e30"])
def test_absurd_timestamps_are_refused_cheaply(kept, tmp_path, ts):
    trace = TraceFileFactory(path=tmp_path / "ts" / "trace_view.json", events=[EventFactory(), EventFactory(ts=ts)])
    report = ingest_in_child(kept.warehouse, trace)
    assert_bounded(report)
    assert report["elapsed"] < 5
    assert_failed(report, trace, "event 1", "ts")
    kept()


def test_absurd_numeric_timestamps_are_refused(kept, tmp_path):
    trace = tmp_path / "num" / "trace_view.json"
    trace.parent.mkdir()
    trace.write_bytes(b"[" + EVENT_A + b',{"ph":"X","name":"b","pid":1,"tid":1,"ts":1e999000,"dur":1}]')
    report = ingest_in_child(kept.warehouse, trace)
    assert_failed(report, trace, "ts")
    kept()


def test_unclosed_begin_events_are_capped(kept, tmp_path):
    events = [EventFactory(ph="B", dur=None, tid=n % 7) for n in range(1500)]
    trace = TraceFileFactory(path=tmp_path / "open" / "trace_view.json", events=events)
    report = ingest_in_child(kept.warehouse, trace, env={"WAREHOUSE_MAX_OPEN_EVENTS": "1000"})
    assert_bounded(report)
    assert_failed(report, trace, "event 1000", "WAREHOUSE_MAX_OPEN_EVENTS")
    kept()


def test_a_gzip_past_the_decompressed_cap_fails(kept, tmp_path):
    trace = gzip_repeating(tmp_path / "big" / "trace_view.json.gz", b"[" + EVENT_A + b",", b" ", 8 << 20,
                           EVENT_B + b"]")
    report = ingest_in_child(kept.warehouse, trace, env={"WAREHOUSE_MAX_DECOMPRESSED_BYTES": str(1 << 20)})
    assert_failed(report, trace, "WAREHOUSE_MAX_DECOMPRESSED_BYTES")
    kept()


# --- operator profile -------------------------------------------------------------------------------------


@pytest.mark.slow  # gigabytes streamed or megabytes built: seconds
def test_a_3_gb_unknown_block_in_a_small_bin_gz_fails_from_its_header(kept, tmp_path):
    size = 3 << 30
    binary = gzip_repeating(tmp_path / "op" / "visualize_data.bin.gz", block_header(0x30, size), b"\0", size, b"")
    assert binary.stat().st_size < 8 << 20
    report = ingest_in_child(kept.warehouse, binary)
    assert_bounded(report)
    assert report["elapsed"] < 5
    assert_failed(report, binary, "block at byte 0 (type 0x30)", "contentSize 3221225472", "WAREHOUSE_MAX_BLOCK_BYTES")
    kept()


@pytest.mark.slow  # gigabytes of blocks (3 MB on disk) written: seconds
def test_a_bin_gz_of_blocks_just_under_the_block_cap_fails_from_the_first_header(kept, tmp_path):
    # issue 32 case 4: each block passes MAX_BLOCK_BYTES' check, their total took the unbounded ingest
    # to 7.5 GB (toward 64 GiB, MAX_DECOMPRESSED_BYTES); the operator profile's own cap stops it unread
    size = (1 << 30) - 12
    binary = gzip_segments(tmp_path / "op" / "visualize_data.bin.gz", [block_header(0x30, size), (b"\0", size)] * 3)
    assert binary.stat().st_size < 8 << 20
    report = ingest_in_child(kept.warehouse, binary, max_address_space=CHILD_ADDRESS_SPACE)
    assert_bounded(report)
    assert report["peak_kb"] < BOUNDED_PEAK_KB, report["peak_kb"]
    assert_failed(report, binary, "block at byte 0 (type 0x30)", f"contentSize {size}",
                  f"{256 << 20} bytes per operator profile", "WAREHOUSE_MAX_OP_PROFILE_BYTES")
    kept()


def test_blocks_that_pass_the_op_profile_cap_together_fail_at_the_first_one_past_it(kept, tmp_path):
    size = 3 << 19  # 1.5 MiB: the third block takes the file past 4 MiB (compressed, the file is 5 KB)
    binary = gzip_segments(tmp_path / "op" / "visualize_data.bin.gz", [block_header(0x30, size), (b"\0", size)] * 4)
    report = ingest_in_child(kept.warehouse, binary, env={"WAREHOUSE_MAX_OP_PROFILE_BYTES": str(4 << 20)})
    assert_failed(report, binary, f"block at byte {2 * (12 + size)} (type 0x30)", "WAREHOUSE_MAX_OP_PROFILE_BYTES")
    kept()


def test_a_bin_past_the_op_profile_cap_on_disk_is_refused_unread(kept, tmp_path):
    binary = tmp_path / "op" / "visualize_data.bin"
    binary.parent.mkdir()
    binary.write_bytes(op_profile_block(0x30, b"\0" * (2 << 20)))
    report = ingest_in_child(kept.warehouse, binary, env={"WAREHOUSE_MAX_OP_PROFILE_BYTES": str(1 << 20)})
    assert_failed(report, binary, f"{binary.stat().st_size} bytes, over the limit of {1 << 20}",
                  "WAREHOUSE_MAX_OP_PROFILE_BYTES", "nothing of it was read")
    kept()


def test_200k_cores_by_500_lines_fail_before_their_rows_are_made(kept, tmp_path):
    doc = {"Cores": [f"c{n}" for n in range(200_000)], "Files Dtype": {"Lines": {}},
           "Files": [{"Source": "a.cpp", "Lines": [{"Line": n, "Cycles": 1} for n in range(500)]}]}
    binary = tmp_path / "op" / "visualize_data.bin"
    binary.parent.mkdir()
    binary.write_bytes(op_profile_block(0x03, json.dumps(doc).encode()))
    report = ingest_in_child(kept.warehouse, binary)
    assert_bounded(report)
    assert report["elapsed"] < 10
    assert_failed(report, binary, "block at byte 0 (type 0x03)", "100000000 rows", "WAREHOUSE_MAX_BLOCK_ROWS")
    kept()


@pytest.mark.slow  # gigabytes streamed or megabytes built: seconds
def test_source_detail_is_capped_with_a_note(kept, tmp_path):
    binary = tmp_path / "op" / "visualize_data.bin"
    binary.parent.mkdir()
    binary.write_bytes(b"".join(op_profile_block(0x30, b"abcd") for _ in range(50_000)))
    report = ingest_in_child(kept.warehouse, binary)
    assert_bounded(report)
    result = report["by_path"][str(binary)]
    assert result["status"] == "ok", result
    assert len(result["detail"].encode()) <= 64 * 1024
    detail = json.loads(result["detail"])
    assert detail["blocks"] == 50_000
    cut = detail["detail_cut"]
    assert cut["left_out_bytes"] > 1_000_000 and "WAREHOUSE_MAX_DETAIL_BYTES" in cut["note"]
    assert 0 < len(detail["unknown_blocks"]) < 50_000
    assert "unknown_blocks" in cut["keys"]
    kept()


# --- text exports --------------------------------------------------------------------------------------------


def test_kernel_details_with_a_nul_byte_fails_naming_the_line(kept, tmp_path):
    written = KernelDetailsFactory(path=tmp_path / "nul" / "kernel_details.csv")
    lines = written.data.split(b"\r\n")
    lines[2] = lines[2][:5] + b"\0" + lines[2][5:]
    written.path.write_bytes(b"\r\n".join(lines))
    report = ingest_in_child(kept.warehouse, written.path)
    assert report["by_path"][str(written.path)]["kind"] == "kernel_details_csv"
    assert_failed(report, written.path, "line 3", "NUL")
    kept()


def test_kernel_details_in_utf16_fails_instead_of_being_skipped(kept, tmp_path, runner):
    from warehouse.cli import cli

    written = KernelDetailsFactory(path=tmp_path / "utf16" / "kernel_details.csv")
    written.path.write_bytes(written.data.decode("utf-8").encode("utf-16"))
    report = ingest_in_child(kept.warehouse, written.path)
    assert report["by_path"][str(written.path)]["kind"] == "kernel_details_csv"
    assert_failed(report, written.path, "line 1", "UTF-16")
    kept()
    again = tmp_path / "utf16le" / "kernel_details.csv"
    again.parent.mkdir()
    again.write_bytes(written.data.decode("utf-8").encode("utf-16-le"))  # no byte-order mark: NULs
    result = runner.invoke(cli, ["ingest", str(again), "--db", str(kept.warehouse)])
    assert result.exit_code == 1, result.output
    assert source_rows(kept.warehouse, "SELECT status FROM source WHERE path = ?", str(again)) == [("failed",)]
    kept()
