"""What every source module shares: the outcome it reports and how inputs are opened.

A source module is one input format. It exposes ``KIND`` (the name recorded in
``source.kind``), ``detect(path) -> bool`` (from the content, not only the name) and
``ingest(conn, path, source_id) -> Outcome``. ``ingest`` runs inside the caller's
transaction and raises :class:`~warehouse.errors.IngestError` for malformed input.
A module whose files exclude each other (one file per rank) also exposes
``claim(conn, path, source_id)``, which raises :class:`~warehouse.errors.SourceConflict`;
the frame calls it before the rows go in, wherever ``ingest`` ran.
"""

from __future__ import annotations

import gzip
import shutil
import sqlite3
import tempfile
import zlib
from collections.abc import Iterable, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from warehouse import limits
from warehouse.errors import IngestError

GZIP_MAGIC = b"\x1f\x8b"
SQLITE_MAGIC = b"SQLite format 3\x00"


@dataclass
class Outcome:
    """What a source module reports after ingesting one file."""

    #: rows added to the warehouse, all tables together
    rows: int
    #: rank the file belongs to, when it says
    rank_id: int | None = None
    #: NPU device of that rank, when the file says
    device_id: int | None = None
    #: host name of that rank, when the file says
    host_name: str | None = None
    #: the profile this file is one card of (an operator name, a rank label)
    card: str | None = None
    #: JSON-able notes recorded in source.detail (tables seen, unknown blocks, ...)
    detail: dict = field(default_factory=dict)
    #: the slices were written unnested (depth 0): the model nests them after the source
    slices_to_nest: bool = False


def open_binary(path: str | Path) -> BinaryIO:
    """Open a file for reading bytes, decompressing it on the fly when it is gzip.

    A gzip stream may give at most ``MAX_DECOMPRESSED_BYTES`` (:mod:`warehouse.limits`):
    reading past that raises :class:`IngestError` naming the file and the byte.
    """
    path = Path(path)
    with path.open("rb") as probe:
        magic = probe.read(2)
    if magic == GZIP_MAGIC:
        return CappedGzipFile(path, limits.current().MAX_DECOMPRESSED_BYTES)
    return path.open("rb")


#: the most bytes one unbounded read of a capped gzip stream asks for at a time
READ_STEP_BYTES = 1 << 20


class CappedGzipFile(gzip.GzipFile):
    """A gzip file read that fails once it has given more than ``cap`` decompressed bytes (0: no cap).

    Unbounded reads (``read()``, ``readline()``) are done in steps, so a small file that inflates
    to gigabytes fails at the cap instead of first filling memory.
    """

    def __init__(self, path: Path, cap: int):
        super().__init__(str(path), "rb")
        self.label = path
        self.cap = cap

    def _check(self, data):
        if self.cap and self.tell() > self.cap:
            raise IngestError(f"{self.label}: byte {self.cap}: decompresses to more than {self.cap} bytes "
                              "(WAREHOUSE_MAX_DECOMPRESSED_BYTES)")
        return data

    def _room(self, size) -> int:
        if size is None or size < 0:
            return -1
        return size

    def read(self, size=-1):
        if self._room(size) < 0 and self.cap:
            parts = []
            while chunk := self.read(READ_STEP_BYTES):
                parts.append(chunk)
            return b"".join(parts)
        return self._check(super().read(size))

    def read1(self, size=-1):
        if self._room(size) < 0:
            size = READ_STEP_BYTES
        return self._check(super().read1(size))

    def readinto(self, buffer):
        return self._check(super().readinto(buffer))

    def readline(self, size=-1):
        if self._room(size) < 0 and self.cap:
            parts = []
            while chunk := super().readline(READ_STEP_BYTES):
                parts.append(self._check(chunk))
                if chunk.endswith(b"\n"):
                    break
            return b"".join(parts)
        return self._check(super().readline(size))


def read_head(path: str | Path, size: int = 4096) -> bytes:
    """The first ``size`` bytes of a file's content (decompressed); b"" if unreadable."""
    try:
        with open_binary(path) as stream:
            return stream.read(size)
    except (OSError, EOFError, zlib.error):
        return b""


def readonly_uri(path: str | Path) -> str:
    """The URI that opens an SQLite input read-only and immutable (never written, never locked)."""
    return f"{Path(path).resolve().as_uri()}?mode=ro&immutable=1"


def require_sqlite(path: Path, what: str) -> None:
    """Check an input is a non-empty file starting with SQLite's header.

    :raises IngestError: naming the file, and ``what`` it should have been.
    """
    if path.stat().st_size == 0:
        raise IngestError(f"{path}: empty file (0 bytes), not {what}")
    if read_head(path, len(SQLITE_MAGIC)) != SQLITE_MAGIC:
        raise IngestError(f"{path}: byte 0: not an SQLite database (no 'SQLite format 3' header)")


@contextmanager
def sqlite_snapshot(path: Path) -> Iterator[Path]:
    """The file to read for the SQLite input ``path``: itself, or, when a non-empty ``-wal`` lies
    beside it (a writer that did not close), a private copy of the file with that WAL checkpointed
    into it, so the committed rows in the WAL are read and nothing is written next to the input.

    The copy is deleted afterwards (an attached copy stays readable until it is detached).

    :raises IngestError: naming the file when the copy cannot be made or checkpointed.
    """
    wal = Path(f"{path}-wal")
    try:
        has_wal = wal.is_file() and wal.stat().st_size > 0
    except OSError:
        has_wal = False
    if not has_wal:
        yield path
        return
    folder = tempfile.mkdtemp(prefix="warehouse-wal-")
    try:
        copy = Path(folder) / "input.db"
        try:
            shutil.copyfile(path, copy)
            shutil.copyfile(wal, f"{copy}-wal")
            with closing(sqlite3.connect(copy)) as writer:
                writer.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
                writer.execute("PRAGMA journal_mode = DELETE").fetchall()
        except (OSError, sqlite3.Error) as exc:
            raise IngestError(f"{path}: -wal: cannot read the file with its write-ahead log ({exc})") from None
        yield copy
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def require_tables(path: Path, probe: sqlite3.Connection, expected: Iterable[str]) -> frozenset[str]:
    """The names of the file's tables and views; refuses a view or virtual table named in ``expected``.

    :raises IngestError: naming the file and the object that is not a plain table.
    """
    rows = probe.execute("SELECT name, type, sql FROM sqlite_master WHERE type IN ('table', 'view')").fetchall()
    wanted = set(expected)
    for name, kind, sql in rows:
        if name not in wanted:
            continue
        if kind == "view":
            raise IngestError(f"{path}: {name}: is a view, not a table (an input table must be a table)")
        if (sql or "").lstrip()[:20].upper().replace(" ", "").startswith("CREATEVIRTUAL"):
            raise IngestError(f"{path}: {name}: is a virtual table, not a table (an input table must be a table)")
    return frozenset(name for name, _, _ in rows)


def attach_readonly(conn: sqlite3.Connection, path: Path, schema: str) -> None:
    """ATTACH an SQLite input read-only and immutable as ``schema``.

    SQLite refuses to detach it inside the transaction that read it: the ingest frame
    detaches after its COMMIT or ROLLBACK.

    :raises IngestError: naming the file when SQLite cannot open it.
    """
    try:
        conn.execute(f"ATTACH DATABASE ? AS {schema}", (readonly_uri(path),))
    except sqlite3.Error as exc:
        raise IngestError(f"{path}: cannot open as SQLite ({exc})") from None
