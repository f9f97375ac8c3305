"""A warehouse on read-only storage (issue 23, item 7): every reading command answers, an output
that cannot be written is one line. The storage is a read-only bind mount in a private mount
namespace (unshare as an unprivileged user: nothing outside the test sees it)."""

from __future__ import annotations

import json
import shutil
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from factories.rank_db import RankDbFactory
from warehouse import db
from warehouse.ingest import ingest_paths

WAREHOUSE = str(Path(sys.executable).parent / "warehouse")


def on_read_only_storage(source: Path, mount: Path, *commands: list[str]) -> list[subprocess.CompletedProcess]:
    """Run each command with ``source`` mounted read-only at ``mount``."""
    mount.mkdir()
    results = []
    for command in commands:
        script = (f"mount --bind {source} {mount} && mount -o remount,bind,ro {mount} && "
                  + " ".join(f"'{part}'" for part in command))
        results.append(subprocess.run(["unshare", "--mount", "--map-root-user", "sh", "-c", script],
                                      capture_output=True, text=True, timeout=120))
    return results


@pytest.fixture
def wal_warehouse(tmp_path) -> Path:
    folder = tmp_path / "store"
    RankDbFactory(path=tmp_path / "in" / "ascend_pytorch_profiler_0.db", rank_id=0)
    folder.mkdir()
    conn = db.connect(folder / "w.db")
    assert ingest_paths(conn, [tmp_path / "in"])[0].status == "ok"
    conn.close()
    assert sqlite3.connect(folder / "w.db").execute("PRAGMA journal_mode").fetchone() == ("wal",)
    return folder


def test_every_reading_command_answers_on_read_only_storage(wal_warehouse, tmp_path):
    ro = tmp_path / "ro"
    info, check, sql, report, export = on_read_only_storage(
        wal_warehouse, ro,
        [WAREHOUSE, "info", "--db", f"{ro}/w.db"],
        [WAREHOUSE, "check", "--db", f"{ro}/w.db"],
        [WAREHOUSE, "sql", "SELECT count(*) AS n FROM kernel", "--db", f"{ro}/w.db", "--format", "json"],
        [WAREHOUSE, "report", "--db", f"{ro}/w.db", "-o", f"{ro}/report.html"],
        [WAREHOUSE, "export", "--db", f"{ro}/w.db", "--out", f"{ro}/parquet"],
    )
    assert info.returncode == 0 and "schema version" in info.stdout, info.stderr
    assert check.returncode == 0 and check.stdout.startswith(f"{ro}/w.db: ok"), check.stdout + check.stderr
    assert sql.returncode == 0 and '"n": ' in sql.stdout, sql.stderr
    # the outputs cannot be written there: one line each, no traceback
    for refused, name in ((report, "report.html"), (export, "parquet")):
        assert refused.returncode == 1
        assert refused.stderr.strip() == f"Error: {ro}/{name}: Read-only file system"


def test_changes_left_in_the_wal_on_read_only_storage_are_not_ignored(wal_warehouse, tmp_path):
    """A WAL still holding committed changes cannot be folded in on read-only storage: reading it
    immutable would silently drop them, so the warehouse is refused with a reason."""
    copy = tmp_path / "copy"
    copy.mkdir()
    writer = sqlite3.connect(wal_warehouse / "w.db", isolation_level=None)
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    writer.execute("UPDATE run SET name = 'renamed'")
    for name in ("w.db", "w.db-wal"):
        shutil.copy2(wal_warehouse / name, copy / name)
    writer.close()
    assert (copy / "w.db-wal").stat().st_size > 0
    ro = tmp_path / "ro"
    (info,) = on_read_only_storage(copy, ro, [WAREHOUSE, "info", "--db", f"{ro}/w.db"])
    assert info.returncode == 1
    assert info.stderr.strip() == (f"Error: {ro}/w.db: on read-only storage with changes still in w.db-wal; "
                                   "open it once where it is writable (any warehouse command) to fold them in")


@pytest.mark.slow  # a server process per test, seconds each
@pytest.mark.parametrize("command,path", (("serve", "/api/v1/health"), ("datasette", "/w.json")))
def test_the_servers_answer_on_read_only_storage(wal_warehouse, tmp_path, command, path):
    """`warehouse serve` and `warehouse datasette` on a WAL warehouse that cannot be written."""
    ro = tmp_path / "ro"
    ro.mkdir()
    port = _free_port()
    script = (f"mount --bind {wal_warehouse} {ro} && mount -o remount,bind,ro {ro} && "
              f"exec '{WAREHOUSE}' {command} --db {ro}/w.db --port {port}")
    server = subprocess.Popen(["unshare", "--mount", "--map-root-user", "sh", "-c", script],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        answer = None
        while time.monotonic() < deadline and server.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as response:
                    answer = (response.status, json.loads(response.read()))
                    break
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.2)
        assert answer is not None, server.stderr.read() if server.poll() is not None else "no answer in 60 s"
        assert answer[0] == 200
    finally:
        server.terminate()
        server.wait(timeout=30)
        server.stderr.close()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
