"""The ingest frame: walk the inputs, detect each file's kind, ingest it in its own transaction.

Every file ends as one ``source`` row: ``ok`` with its rows, ``failed`` with a one-line
reason naming the file and the place (and no rows), or ``skipped`` when no source reads
it. A file whose content (sha256) is already in the warehouse is left alone unless
``force`` is set, so running the same ingest twice changes nothing.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from warehouse import db
from warehouse.errors import IngestError, SourceConflict, WarehouseError
from warehouse.sources import detect_source

HASH_CHUNK_BYTES = 1 << 20
#: a failure reason is cut to this many characters (a hostile input's enormous value is not echoed whole)
MAX_REASON_CHARS = 500
REASSIGN_RANK_SQL = (Path(__file__).parent / "reassign_rank.sql").read_text(encoding="utf-8")


@dataclass
class FileResult:
    """What happened to one input file."""

    path: Path
    #: ok, failed, skipped (no source reads it) or unchanged (already in the warehouse)
    status: str
    kind: str | None = None
    rows: int = 0
    elapsed_ns: int = 0
    error: str | None = None
    source_id: int | None = None
    size_bytes: int = 0


def discover(paths: Iterable[str | Path], *, exclude: Iterable[Path] = ()) -> Iterator[Path]:
    """Every file named, and every file below every folder named, in a stable order.

    ``exclude`` names files never to yield: the warehouse itself and its journal files,
    so that ``warehouse ingest .`` next to ``warehouse.db`` does not read the warehouse.
    """
    excluded = {Path(path).absolute() for path in exclude}
    for given in paths:
        path = Path(given).absolute()
        if path.is_dir():
            for root, dirs, files in os.walk(path):
                dirs.sort()
                for name in sorted(files):
                    if (Path(root) / name) not in excluded:
                        yield Path(root) / name
        elif path not in excluded:
            yield path


def warehouse_files(conn: sqlite3.Connection) -> list[Path]:
    """The warehouse's own file and its WAL, shared-memory and rollback-journal companions."""
    main = next(row[2] for row in conn.execute("PRAGMA database_list") if row[1] == "main")
    if not main:
        return []
    return [Path(main + suffix) for suffix in ("", "-wal", "-shm", "-journal")]


def ingest_paths(
    conn: sqlite3.Connection,
    paths: Iterable[str | Path],
    *,
    force: bool = False,
    on_file: Callable[[FileResult], None] | None = None,
) -> list[FileResult]:
    """Ingest every file under ``paths``; one transaction per file. Returns one result per file."""
    results = []
    for path in discover(paths, exclude=warehouse_files(conn)):
        result = ingest_file(conn, path, force=force)
        results.append(result)
        if on_file:
            on_file(result)
    return results


def ingest_file(conn: sqlite3.Connection, path: Path, *, force: bool = False) -> FileResult:
    """Ingest one file (see the module docstring for the rules)."""
    started = time.perf_counter_ns()
    try:
        size, sha256 = _hash_file(path)
    except OSError as exc:
        return FileResult(path, "failed", error=f"{path}: cannot read ({exc.strerror or exc})")
    previous = conn.execute(
        "SELECT id FROM source WHERE sha256 = ? AND status = 'ok' ORDER BY id DESC LIMIT 1", (sha256,)
    ).fetchone()
    if previous and not force:
        return FileResult(path, "unchanged", source_id=previous[0], size_bytes=size)

    kind = None
    _begin(conn, path)
    try:
        module = detect_source(path)  # inside: a detect() that raises fails this file alone
        kind = module.KIND if module else None
        replaced = _replaced_sources(conn, path, sha256)
        source_id = _insert_source(conn, path, kind, sha256, size)
        if module is None:
            _finish(conn, source_id, "skipped", f"{path}: no source reads this kind of file", 0, started, {})
            conn.execute("COMMIT")
            return FileResult(path, "skipped", error=f"{path}: no source reads this kind of file",
                              source_id=source_id, size_bytes=size)
        for old in replaced:
            delete_source(conn, old)
        outcome = _run_source(conn, module, path, source_id, force)
        elapsed = _finish(conn, source_id, "ok", None, outcome.rows, started, outcome.detail,
                          rank_id=outcome.rank_id, card=outcome.card)
        conn.execute("COMMIT")
        return FileResult(path, "ok", kind, outcome.rows, elapsed, source_id=source_id, size_bytes=size)
    except Exception as exc:  # noqa: BLE001 - any failure of one input is recorded, the others go on
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        reason = _reason(path, exc)
        source_id = _record_failure(conn, path, kind, sha256, size, reason, started)
        return FileResult(path, "failed", kind, error=reason, source_id=source_id, size_bytes=size,
                          elapsed_ns=time.perf_counter_ns() - started)
    finally:
        _detach_inputs(conn)


def _run_source(conn, module, path, source_id, force):
    """Run the source module; under ``force`` a conflict replaces the sources it names."""
    try:
        return module.ingest(conn, path, source_id)
    except SourceConflict as conflict:
        if not force:
            raise
        replaced = conflict.source_ids
    for old in replaced:
        delete_source(conn, old)
    return module.ingest(conn, path, source_id)


def _detach_inputs(conn: sqlite3.Connection) -> None:
    """Detach what a source attached: SQLite refuses it inside the transaction that read it."""
    for _, name, _ in conn.execute("PRAGMA database_list").fetchall():
        if name not in ("main", "temp"):
            conn.execute(f'DETACH DATABASE "{name}"')


def delete_source(conn: sqlite3.Connection, source_id: int) -> None:
    """Remove a source and every row it added (every table with a source_id column).

    A rank it declared is kept, passed to another source of that rank, when there is one.
    """
    conn.execute(REASSIGN_RANK_SQL, {"source_id": source_id})
    for table in _tables_with_source_id(conn):
        conn.execute(f'DELETE FROM "{table}" WHERE source_id = ?', (source_id,))
    conn.execute("DELETE FROM source WHERE id = ?", (source_id,))


def _tables_with_source_id(conn: sqlite3.Connection) -> list[str]:
    tables = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    return [
        table for table in tables
        if table != "source"
        and any(column[1] == "source_id" for column in conn.execute(f'PRAGMA table_info("{table}")'))
    ]


def _replaced_sources(conn: sqlite3.Connection, path: Path, sha256: str) -> list[int]:
    """Earlier records this file supersedes: same content, or an older version at the same path.

    Failed and skipped records of it are dropped at once; rows of an ``ok`` record are
    dropped only once the new version is in (so a failing new version loses nothing).
    """
    rows = conn.execute(
        "SELECT id, status FROM source WHERE sha256 = ? OR path = ?", (sha256, str(path))
    ).fetchall()
    replaced = []
    for source_id, status in rows:
        if status != "ok":
            conn.execute("DELETE FROM source WHERE id = ?", (source_id,))
        else:
            replaced.append(source_id)
    return replaced


def _insert_source(conn: sqlite3.Connection, path: Path, kind: str | None, sha256: str, size: int) -> int:
    now = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    return conn.execute(
        "INSERT INTO source (path, kind, sha256, size_bytes, status, ingested_at) VALUES (?, ?, ?, ?, 'ok', ?)",
        (str(path), kind, sha256, size, now),
    ).lastrowid


def _finish(conn, source_id, status, error, rows, started, detail, *, rank_id=None, card=None) -> int:
    elapsed = time.perf_counter_ns() - started
    conn.execute(
        "UPDATE source SET status = ?, error = ?, row_count = ?, elapsed_ns = ?, detail = ?, rank_id = ?, card = ? "
        "WHERE id = ?",
        (status, error, rows, elapsed, json.dumps(detail) if detail else None, rank_id, card, source_id),
    )
    return elapsed


def _begin(conn: sqlite3.Connection, path: Path) -> None:
    """Take the warehouse's write lock (waiting up to the busy timeout for another writer).

    :raises WarehouseError: if another process kept it all that time (nothing of ``path`` is written).
    """
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as exc:
        raise WarehouseError(
            f"{path}: the warehouse is busy: another process held its write lock for {db.BUSY_TIMEOUT_S} s "
            f"({exc}); nothing of this file was written, run the ingest again"
        ) from None


def _record_failure(conn, path, kind, sha256, size, reason, started) -> int:
    _begin(conn, path)
    conn.execute("DELETE FROM source WHERE sha256 = ? AND status != 'ok'", (sha256,))
    source_id = _insert_source(conn, path, kind, sha256, size)
    _finish(conn, source_id, "failed", reason, 0, started, {})
    conn.execute("COMMIT")
    return source_id


def _reason(path: Path, exc: Exception) -> str:
    """One line naming the file; the module's own message says the place."""
    if isinstance(exc, IngestError):
        message = str(exc)
    elif isinstance(exc, (sqlite3.Error, OSError, ValueError, UnicodeError, EOFError)):
        message = f"{type(exc).__name__}: {exc}"
    else:
        message = f"internal error {type(exc).__name__}: {exc}"
    message = " ".join(message.split())
    if len(message) > MAX_REASON_CHARS:
        message = message[:MAX_REASON_CHARS - 1] + "…"
    return message if message.startswith(str(path)) else f"{path}: {message}"


def _hash_file(path: Path) -> tuple[int, str]:
    digest = hashlib.sha256()
    size = 0
    with path.open("rb") as stream:
        while chunk := stream.read(HASH_CHUNK_BYTES):
            digest.update(chunk)
            size += len(chunk)
    return size, digest.hexdigest()
