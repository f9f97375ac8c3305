"""The ingest frame: walk the inputs, detect each file's kind, ingest it in its own transaction.

Every file ends as one ``source`` row: ``ok`` with its rows, ``failed`` with a one-line
reason naming the file and the place (and no rows), or ``skipped`` when no source reads
it. A file whose content (sha256) is already in the warehouse is left alone unless
``force`` is set, so running the same ingest twice changes nothing.

Bounded: every read of an input, and of a file beside it (a profiler_info read for the rank),
goes through :func:`warehouse.sources.base.open_binary`: only regular files are read (a FIFO,
socket or device, or a link to one, fails at once and never blocks), each kind of file has a size
cap checked before it is read; each file has a deadline (``INGEST_TIME_LIMIT_S`` of
:mod:`warehouse.limits`) from its sha256 on, enforced by a progress handler on the connection
(so a view over an endless recursive CTE stops with a one-line reason) and on every read; and
``source.detail`` is cut to ``MAX_DETAIL_BYTES`` with a note of how much was left out.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import sqlite3
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path

from warehouse import db, introspect
from warehouse import limits as limits_module
from warehouse.errors import IngestError, SourceConflict, WarehouseError
from warehouse.ingest import progress_line
from warehouse.ingest.merge import merge_part
from warehouse.model import derived
from warehouse.model.runs import RunNamer
from warehouse.ingest.parts import MIN_PART_BYTES, PART_FOLDER_PREFIX, PartPool, drop_part_indexes
from warehouse.sources import SOURCES, detect_source
from warehouse.sources.base import NotRegularFile, Outcome, ReadDeadlinePassed, open_binary, read_deadline
from warehouse.sources.kit.skipped_reason import skipped_reason
from warehouse.ingest.staged import store as staged_store

HASH_CHUNK_BYTES = 1 << 20
#: a failure reason is cut to this many characters (a hostile input's enormous value is not echoed whole)
MAX_REASON_CHARS = 500
#: how far ahead of the file being written the parallel ingest looks for large files
LOOKAHEAD_FILES = 64


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
    Folders of worker parts (left behind by a killed parallel ingest) are not walked.
    """
    excluded = {_absolute(path) for path in exclude}
    for given in paths:
        path = _absolute(given)
        if path.is_dir():
            for root, dirs, files in os.walk(path):
                dirs[:] = sorted(name for name in dirs if not name.startswith(PART_FOLDER_PREFIX))
                for name in sorted(files):
                    if (Path(root) / name) not in excluded:
                        yield Path(root) / name
        elif path not in excluded:
            yield path


def _absolute(path: str | Path) -> Path:
    """The path made absolute and normal ('..' resolved, symlinks kept): one text per file."""
    return Path(os.path.normpath(Path(path).absolute()))


def warehouse_files(conn: sqlite3.Connection) -> list[Path]:
    """The warehouse's own file and its WAL, shared-memory and rollback-journal companions."""
    main = next(row[2] for row in conn.execute("PRAGMA database_list") if row[1] == "main")
    return warehouse_files_at(main) if main else []


def warehouse_files_at(main: str | Path) -> list[Path]:
    """The files a warehouse at ``main`` is kept in (it and its journals), whether it exists yet or not."""
    return [Path(f"{main}{suffix}") for suffix in ("", "-wal", "-shm", "-journal")]


def empty_paths(paths: Iterable[str | Path], *, exclude: Iterable[Path] = ()) -> list[str | Path]:
    """The paths below which :func:`discover` finds no file (an empty folder, or one holding only
    the warehouse): a user's mistake to say before any warehouse is made."""
    exclude = list(exclude)
    return [path for path in paths if next(discover([path], exclude=exclude), None) is None]


def ingest_paths(
    conn: sqlite3.Connection,
    paths: Iterable[str | Path],
    *,
    force: bool = False,
    on_file: Callable[[FileResult], None] | None = None,
    jobs: int = 1,
    run_name: str | None = None,
) -> list[FileResult]:
    """Ingest every file under ``paths``; one transaction per file. Returns one result per file.

    Each file joins its run (:mod:`warehouse.model.runs`); ``run_name`` names the run(s) found.

    With ``jobs`` > 1, files of at least ``MIN_PART_BYTES`` are ingested ahead in that many
    worker processes (see :mod:`warehouse.ingest.parts`) while the parent copies the finished ones
    in; the warehouse ends the same as with one job.
    """
    own_files = warehouse_files(conn)
    files = list(discover(paths, exclude=own_files))
    runs = RunNamer(conn, files, run_name)
    results = []
    with PartPool(jobs, beside=own_files[0].parent if own_files else None) if jobs > 1 else nullcontext() as pool:
        for path, hashed, part in _ahead(conn, files, force, pool):
            progress_line.doing(path, "ingesting")
            if part:
                progress_line.wait(part.future)
            result = ingest_file(conn, path, force=force, hashed=hashed, part=part, runs=runs)
            progress_line.done(path)
            results.append(result)
            if on_file:
                on_file(result)
    return results


@dataclass
class Part:
    """A file being ingested by a worker into a part (a scratch warehouse)."""

    future: Future
    path: Path


def _ahead(conn, files, force, pool) -> Iterator[tuple[Path, tuple[int, str] | Exception, Part | None]]:
    """Each file with its size and sha256 (or why it cannot be read) and its part, if a worker
    took it; workers are kept busy with the next large files while the parent copies one in."""
    queue: deque[tuple[Path, tuple[int, str] | Exception, Part | None]] = deque()
    upcoming = iter(files)
    window, busy = (LOOKAHEAD_FILES, pool.jobs) if pool else (1, 0)
    while True:
        while len(queue) < window and sum(part is not None for _, _, part in queue) <= busy:
            path = next(upcoming, None)
            if path is None:
                break
            hashed = _try_hash(path)
            part = None
            if pool and isinstance(hashed, tuple) and hashed[0] >= MIN_PART_BYTES and (
                    force or not _known(conn, hashed[1], path)):
                part = Part(*pool.submit(_ingest_part, path, hashed))
            queue.append((path, hashed, part))
        if not queue:
            return
        path, hashed, part = queue.popleft()
        try:
            yield path, hashed, part
        finally:
            if part:
                if not part.future.cancel():
                    part.future.exception()  # wait for the worker still writing it
                pool.discard(part.path)


def _ingest_part(path: Path, part_path: Path, hashed: tuple[int, str]) -> FileResult:
    """In a worker process: ingest ``path`` into a new warehouse at ``part_path``.

    The part is a throwaway file: no durability is asked of it, and no WAL (the parent
    attaches it read-only).
    """
    progress_line.doing(path, "ingesting")
    conn = db.connect(part_path)
    try:
        drop_part_indexes(conn)
        conn.execute("PRAGMA journal_mode = MEMORY")
        conn.execute("PRAGMA synchronous = OFF")
        return ingest_file(conn, path, hashed=hashed)
    finally:
        conn.close()


def _try_hash(path: Path) -> tuple[int, str] | OSError | IngestError:
    """The file's size and sha256, read under its time limit, or why it cannot be read."""
    progress_line.doing(path, "hashing")
    seconds = limits_module.current().INGEST_TIME_LIMIT_S
    previous = read_deadline(time.monotonic() + seconds if seconds else None)
    try:
        return _hash_file(path)
    except (OSError, IngestError) as exc:
        return exc
    finally:
        read_deadline(previous)


def _known(conn: sqlite3.Connection, sha256: str, path: Path) -> int | None:
    """The source holding this content from this path already, if any (the same bytes at another
    path are another input: another rank's or another run's file)."""
    row = conn.execute(
        "SELECT id FROM source WHERE sha256 = ? AND path = ? AND status = 'ok' AND stage IS NULL "
        "ORDER BY id DESC LIMIT 1",
        (sha256, str(path)),
    ).fetchone()
    return row[0] if row else None


def ingest_file(
    conn: sqlite3.Connection,
    path: Path,
    *,
    force: bool = False,
    hashed: tuple[int, str] | Exception | None = None,
    part: Part | None = None,
    runs: RunNamer | None = None,
    verify: Callable[[], None] | None = None,
) -> FileResult:
    """Ingest one file (see the module docstring for the rules).

    ``hashed`` is the file's (size, sha256) when the caller read them already; ``part``
    is a worker's ingest of the file, copied in instead of running the source here;
    ``verify``, called once the rows are written and before they are committed, raises
    :class:`IngestError` to roll them back (a caller that checks what was read is what it opened).
    """
    started = time.perf_counter_ns()
    path = _absolute(path)
    if hashed is None:
        hashed = _try_hash(path)
    if isinstance(hashed, NotRegularFile):
        return FileResult(path, "failed", error=f"{path}: {hashed}")
    if isinstance(hashed, OSError):
        return FileResult(path, "failed", error=f"{path}: cannot read ({hashed.strerror or hashed})")
    if isinstance(hashed, ReadDeadlinePassed):
        return FileResult(path, "failed", error=_deadline_reason(path, limits_module.current().INGEST_TIME_LIMIT_S))
    if isinstance(hashed, IngestError):
        return FileResult(path, "failed", error=_reason(path, hashed))
    size, sha256 = hashed
    runs = runs or RunNamer(conn, [path])
    previous = _known(conn, sha256, path)
    if previous and not force:
        return FileResult(path, "unchanged", source_id=previous, size_bytes=size)

    kind = None
    bounds = limits_module.current()
    db.begin(conn, path)
    deadline = _Deadline(conn, 0)
    try:
        worker = part.future.result() if part else None
        deadline = _Deadline(conn, bounds.INGEST_TIME_LIMIT_S)  # the worker had its own
        if worker:  # the file's time: the worker's ingest, then the copy
            started = time.perf_counter_ns() - worker.elapsed_ns
        # a detect() that raises fails this file alone
        module = _source_of_kind(worker.kind) if worker else detect_source(path)
        kind = module.KIND if module else None
        if worker and worker.status == "failed":
            raise IngestError(worker.error)
        staged = staged_source(conn, path)
        replaced = _replaced_sources(conn, path)
        if staged:  # its staged rows go now; the file lands in its source row (warehouse.ingest.staged)
            staged_store.forget(conn, staged[0])
        source_id = insert_source(conn, path, kind, sha256, size, runs.run_of(path),
                                   source_id=staged[0] if staged else None)
        if module is None:
            reason = skipped_reason(path)
            _finish(conn, source_id, "skipped", reason, 0, started, {})
            conn.execute("COMMIT")
            return FileResult(path, "skipped", error=reason, source_id=source_id, size_bytes=size)
        for old in replaced:
            delete_source(conn, old)
        _claim(conn, module, path, source_id, force)
        if part:  # the worker's frame gave the rows their meaning already
            outcome = merge_part(conn, part.path, source_id)
        else:
            outcome = module.ingest(conn, path, source_id)
            derived.after_rows(conn, source_id, nest=outcome.slices_to_nest, classify=not outcome.kernels_classified)
        _finish(conn, source_id, "ok", None, outcome.rows, started, outcome.detail, outcome=outcome,
                max_detail=bounds.MAX_DETAIL_BYTES)
        derived.after_source(conn, source_id)
        deadline.check()
        deadline.stop()
        if verify:
            verify()
        elapsed = _elapsed(conn, source_id, started)
        conn.execute("COMMIT")
        return FileResult(path, "ok", kind, outcome.rows, elapsed, source_id=source_id, size_bytes=size)
    except Exception as exc:  # noqa: BLE001 - any failure of one input is recorded, the others go on
        deadline.stop()
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        runs.forget(path)
        reason = deadline.reason(path) if deadline.passed() else _reason(path, exc)
        source_id = _record_failure(conn, path, kind, sha256, size, reason, started, runs)
        return FileResult(path, "failed", kind, error=reason, source_id=source_id, size_bytes=size,
                          elapsed_ns=time.perf_counter_ns() - started)
    finally:
        deadline.stop()
        detach_inputs(conn)


class _Deadline:
    """A progress handler on ``conn`` that interrupts SQLite once ``seconds`` have passed (0: none)."""

    #: SQLite virtual-machine steps between two looks at the clock
    STEPS = 10_000

    def __init__(self, conn: sqlite3.Connection, seconds: float):
        self.conn = conn
        self.seconds = seconds
        self.at = time.monotonic() + seconds if seconds else None
        if self.at is not None:
            conn.set_progress_handler(self._handler, self.STEPS)
            read_deadline(self.at)  # and every read of an input (sources/base.py) on this thread

    def _handler(self) -> int:
        return int(time.monotonic() > self.at)

    def passed(self) -> bool:
        return self.at is not None and time.monotonic() > self.at

    def check(self) -> None:
        """:raises IngestError: when the deadline has passed (work done outside SQLite)."""
        if self.passed():
            raise IngestError("deadline passed")

    def stop(self) -> None:
        if self.at is not None:
            self.conn.set_progress_handler(None, 0)
            read_deadline(None)

    def reason(self, path: Path) -> str:
        return _deadline_reason(path, self.seconds)


def _deadline_reason(path: Path, seconds: float) -> str:
    return (f"{path}: stopped after {seconds:g} s, the time one input may take "
            f"(WAREHOUSE_INGEST_TIME_LIMIT_S); nothing of this file was written")


def _source_of_kind(kind: str | None):
    return next((module for module in SOURCES if module.KIND == kind), None)


def _claim(conn, module, path, source_id, force) -> None:
    """Let a source refuse a file that conflicts with the warehouse's (see sources/base.py);
    under ``force`` the conflicting sources are replaced."""
    claim = getattr(module, "claim", None)
    if claim is None:
        return
    try:
        claim(conn, path, source_id)
    except SourceConflict as conflict:
        if not force:
            raise
        for old in conflict.source_ids:
            delete_source(conn, old)


def detach_inputs(conn: sqlite3.Connection) -> None:
    """Detach what a source attached: SQLite refuses it inside the transaction that read it."""
    for _, name, _ in conn.execute("PRAGMA database_list").fetchall():
        if name not in ("main", "temp"):
            conn.execute(f'DETACH DATABASE "{name}"')


def delete_source(conn: sqlite3.Connection, source_id: int) -> None:
    """Remove a source and every row it added (every table with a source_id column).

    What was derived from its rows goes with them (:func:`warehouse.model.derived.forget_source`).
    """
    derived.forget_source(conn, source_id)
    for table in introspect.tables_with_column(conn, "source_id"):
        if table != "source":
            conn.execute(f'DELETE FROM "{table}" WHERE source_id = ?', (source_id,))
    conn.execute("DELETE FROM source WHERE id = ?", (source_id,))


def _replaced_sources(conn: sqlite3.Connection, path: Path) -> list[int]:
    """Earlier records this file supersedes: the same or an older version at the same path.

    Failed and skipped records of it are dropped at once; rows of an ``ok`` record are
    dropped only once the new version is in (so a failing new version loses nothing).
    """
    rows = conn.execute("SELECT id, status FROM source WHERE path = ? AND stage IS NULL", (str(path),)).fetchall()
    replaced = []
    for source_id, status in rows:
        if status != "ok":
            conn.execute("DELETE FROM source WHERE id = ?", (source_id,))
        else:
            replaced.append(source_id)
    return replaced


def insert_source(conn: sqlite3.Connection, path: Path, kind: str | None, sha256: str, size: int,
                   run_id: int, *, source_id: int | None = None, stage: str | None = None) -> int:
    """A new ``ok`` source row (the id a staged file holds, when given)."""
    now = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    return conn.execute(
        "INSERT INTO source (id, path, kind, sha256, size_bytes, status, ingested_at, run_id, stage) "
        "VALUES (?, ?, ?, ?, ?, 'ok', ?, ?, ?)",
        (source_id, str(path), kind, sha256, size, now, run_id, stage),
    ).lastrowid


def staged_source(conn: sqlite3.Connection, path: Path) -> tuple[int, str] | None:
    """``(id, stage)`` of the source row stage 1 of ``warehouse ingest --answers-first`` gave
    ``path`` (:mod:`warehouse.ingest.staged`), if its full ingest is still to come."""
    return conn.execute("SELECT id, stage FROM source WHERE path = ? AND stage IS NOT NULL ORDER BY id LIMIT 1",
                        (str(path),)).fetchone()


def _finish(conn, source_id, status, error, rows, started, detail, *, outcome: Outcome | None = None,
            max_detail: int = 0) -> int:
    elapsed = time.perf_counter_ns() - started
    outcome = outcome or Outcome(rows)
    conn.execute(
        "UPDATE source SET status = ?, error = ?, row_count = ?, elapsed_ns = ?, detail = ?, rank_id = ?, card = ?, "
        "device_id = ?, host_name = ? WHERE id = ?",
        (status, error, rows, elapsed, capped_detail(detail, max_detail) if detail else None, outcome.rank_id,
         outcome.card, outcome.device_id, outcome.host_name, source_id),
    )
    return elapsed


#: room kept under the cap for the note that says what was cut
DETAIL_NOTE_BYTES = 400


def capped_detail(detail: dict, max_bytes: int) -> str:
    """``detail`` as JSON text of at most ``max_bytes`` bytes (0: no cap), still a JSON object.

    Keys are kept in order while they fit; a list that does not fit keeps its first items.
    What was cut is said under ``detail_cut``: the bytes of the whole detail and how many
    were left out, and which keys lost what.
    """
    text = json.dumps(detail)
    total = len(text.encode("utf-8"))
    if not max_bytes or total <= max_bytes:
        return text
    budget = max(0, max_bytes - DETAIL_NOTE_BYTES)
    kept: dict = {}
    cut: dict = {}
    used = 2
    for key, value in detail.items():
        piece = len(json.dumps({key: value}).encode("utf-8"))
        if used + piece <= budget:
            kept[key] = value
            used += piece
            continue
        if isinstance(value, list):
            items, room = [], budget - used - len(json.dumps(key).encode("utf-8")) - 6
            for item in value:
                size = len(json.dumps(item).encode("utf-8")) + 2
                if size > room:
                    break
                items.append(item)
                room -= size
            if items:
                kept[key] = items
                used += len(json.dumps({key: items}).encode("utf-8"))
            cut[key] = f"first {len(items)} of {len(value)} items kept"
        else:
            cut[key] = "left out"
    while True:
        kept_bytes = len(json.dumps(kept).encode("utf-8"))
        note = {
            "bytes": total, "left_out_bytes": total - kept_bytes, "max_bytes": max_bytes,
            "note": f"source.detail is capped at {max_bytes} bytes (WAREHOUSE_MAX_DETAIL_BYTES); "
                    f"about {total - kept_bytes} of its {total} bytes were left out",
            "keys": {key: str(why)[:80] for key, why in list(cut.items())[:8]},
        }
        result = json.dumps({**kept, "detail_cut": note})
        if len(result.encode("utf-8")) <= max_bytes or not kept:
            return result if len(result.encode("utf-8")) <= max_bytes else json.dumps({"detail_cut": {
                "bytes": total, "left_out_bytes": total, "max_bytes": max_bytes}})
        # still over (a cap smaller than the note, multi-byte text): drop the last key kept
        key = next(reversed(kept))
        cut[key] = "left out"
        del kept[key]


def _elapsed(conn: sqlite3.Connection, source_id: int, started: int) -> int:
    """The file's time, the model's work after the source included."""
    elapsed = time.perf_counter_ns() - started
    conn.execute("UPDATE source SET elapsed_ns = ? WHERE id = ?", (elapsed, source_id))
    return elapsed


def _record_failure(conn, path, kind, sha256, size, reason, started, runs: RunNamer) -> int:
    """Record why ``path`` failed. A staged rank db keeps its first answers, its reason beside them;
    a file staged without answers fails in the source row it holds."""
    with db.transaction(conn, path):
        staged = staged_source(conn, path)
        if staged and staged[1] == "answers":
            conn.execute("UPDATE source SET error = ? WHERE id = ?", (reason, staged[0]))
            return staged[0]
        conn.execute("DELETE FROM source WHERE path = ? AND status != 'ok'", (str(path),))
        if staged:
            staged_store.forget(conn, staged[0])
        source_id = insert_source(conn, path, kind, sha256, size, runs.run_of(path),
                                   source_id=staged[0] if staged else None)
        _finish(conn, source_id, "failed", reason, 0, started, {})
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
    with open_binary(path, None, decompress=False) as stream:  # the bytes on disk, whatever their size
        while chunk := stream.read(HASH_CHUNK_BYTES):
            digest.update(chunk)
            size += len(chunk)
    return size, digest.hexdigest()
