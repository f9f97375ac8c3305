"""A warehouse on read-only storage (issue 23, item 7): every reading command answers, an output
that cannot be written is one line. The storage is a read-only bind mount in a private mount
namespace (unshare as an unprivileged user: nothing outside the test sees it)."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
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
