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
import io
import os
import shutil
import sqlite3
import stat
import tempfile
import threading
import time
import zlib
from collections.abc import Callable, Iterable, Iterator
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
    #: the kernels were classified as they were written: the model does not classify them after the source
    kernels_classified: bool = False


#: the most bytes one unbounded read of an input (or of a capped gzip stream) asks for at a time
READ_STEP_BYTES = 1 << 20


class NotRegularFile(OSError):
    """An input that is not a regular file (a FIFO, socket, device, or a link to one): never read."""


class ReadDeadlinePassed(IngestError):
    """A read of an input went on past the time its ingest may take."""


class OverSizeLimit(IngestError):
    """An input larger than its kind may be (on disk, or decompressed): refused, or stopped at the limit."""


#: this thread's input deadline: the ``time.monotonic()`` past which every read of an input fails
_READING = threading.local()


def read_deadline(at: float | None) -> float | None:
    """Make every input read on this thread fail past ``at`` (``time.monotonic()``; None: no limit).

    The ingest frame sets it for each file (``INGEST_TIME_LIMIT_S``), so that reads outside SQLite
    (a trace's text, a sidecar read to find the rank, the file's sha256) stop with the file's
    deadline as SQLite's work does. Returns the deadline it replaced.
    """
    previous = getattr(_READING, "at", None)
    _READING.at = at
    return previous


#: who is told how far the reads of inputs have got in this process (:func:`observe_reads`)
_OBSERVER: list[Callable[[Path, int, int], None] | None] = [None]


def observe_reads(observer: Callable[[Path, int, int], None] | None):
    """Tell ``observer(path, bytes_read, file_bytes)`` how far each read of an input in this process has
    got (None: tell nobody): every :data:`READ_STEP_BYTES` read, and once the last byte is read (bytes of
    the file on disk: a gzip file's compressed bytes). The ingest's progress line on a terminal
    (:mod:`warehouse.ingest.progress_line`) listens. Returns the observer it replaced."""
    previous = _OBSERVER[0]
    _OBSERVER[0] = observer
    return previous


def read_observer() -> Callable[[Path, int, int], None] | None:
    """Who :func:`observe_reads` tells in this process (None: nobody), for a reader that counts its
    bytes itself (DuckDB's, :func:`warehouse.sources.kit.duck.reading`)."""
    return _OBSERVER[0]


def file_type(mode: int) -> str:
    """What a file that is not a regular file is, in words ("a FIFO")."""
    for test, name in ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISDIR, "a folder")):
        if test(mode):
            return name
    return "not a file"


def open_regular(path: str | Path) -> int:
    """A read-only descriptor of ``path`` (links followed), checked to be a regular file.

    Checked with ``stat`` first, then opened with ``O_NONBLOCK`` and checked again with ``fstat`` on
    what was opened: a FIFO never blocks the open, even one swapped in between.

    :raises NotRegularFile: for a FIFO, socket, device or folder; ``OSError`` when it cannot be opened.
    """
    mode = os.stat(path).st_mode  # a socket or device is refused unopened (opening some has effects)
    if stat.S_ISREG(mode):
        descriptor = os.open(path, os.O_RDONLY | os.O_CLOEXEC | getattr(os, "O_NONBLOCK", 0))
        mode = os.fstat(descriptor).st_mode
        if stat.S_ISREG(mode):
            return descriptor
        os.close(descriptor)
    raise NotRegularFile(f"not a regular file ({file_type(mode)})")


class BoundedFile(io.FileIO):
    """A regular input file read under its bounds: at most ``cap`` bytes (0: no cap), each read
    checked against this thread's input deadline (:func:`read_deadline`)."""

    def __init__(self, descriptor: int, label: Path, cap: int, setting: str, size: int = 0):
        super().__init__(descriptor, "rb", closefd=True)
        self.label = label
        self.cap = cap
        self.setting = setting
        self.size = size
        self.given = 0
        self.told = 0

    def readinto(self, buffer) -> int | None:
        at = getattr(_READING, "at", None)
        if at is not None and time.monotonic() > at:
            raise ReadDeadlinePassed(f"{self.label}: still reading when the time one input may take had passed "
                                     "(WAREHOUSE_INGEST_TIME_LIMIT_S)")
        if len(buffer) > READ_STEP_BYTES:  # a step at a time: the deadline and the observer see each
            buffer = memoryview(buffer).cast("B")[:READ_STEP_BYTES]
        count = super().readinto(buffer)
        self.given += count or 0
        if self.cap and self.given > self.cap:  # a file that grew after its size was checked
            raise OverSizeLimit(f"{self.label}: byte {self.cap}: more than {self.cap} bytes (WAREHOUSE_{self.setting})")
        observer = _OBSERVER[0]
        if observer and self.given > self.told and (self.given - self.told >= READ_STEP_BYTES
                                                    or self.given >= self.size or not count):
            self.told = self.given
            observer(self.label, self.given, max(self.size, self.given))
        return count

    def readall(self) -> bytes:
        # FileIO's own readall reads without calling readinto: read in steps through it
        data = bytearray()
        step = bytearray(READ_STEP_BYTES)
        while count := self.readinto(step):
            data += memoryview(step)[:count]
        return bytes(data)


def open_binary(path: str | Path, setting: str | None = "MAX_DECOMPRESSED_BYTES", *,
                decompress: bool = True) -> BinaryIO:
    """Open an input file for reading bytes (decompressed on the fly when it is gzip), bounded before
    a byte of it is read. Every read of an input goes through here.

    Only a regular file is opened (:func:`open_regular`); a file larger than the limit ``setting`` of
    :mod:`warehouse.limits` names (its kind's: ``MAX_SIDECAR_BYTES`` for a profiler_info) is refused
    from its size; a gzip stream (when ``decompress``) may give at most as many decompressed bytes;
    and every read fails once this thread's input deadline has passed (:func:`read_deadline`).

    :param setting: the limit's name, or None for no size cap (a file only hashed, whatever its size).
    :raises NotRegularFile: for a FIFO, socket or device.
    :raises OverSizeLimit: naming the file, its size and the setting, when it is over the cap (or,
        reading, a gzip stream passes it); :class:`ReadDeadlinePassed` when a read comes too late.
    """
    path = Path(path)
    cap = int(getattr(limits.current(), setting)) if setting else 0
    descriptor = open_regular(path)
    try:
        size = os.fstat(descriptor).st_size
        if cap and size > cap:
            raise OverSizeLimit(f"{path}: {size} bytes, over the limit of {cap} bytes for this kind of file "
                              f"(WAREHOUSE_{setting}); nothing of it was read")
        gzipped = decompress and os.pread(descriptor, len(GZIP_MAGIC), 0) == GZIP_MAGIC
        raw = BoundedFile(descriptor, path, cap, setting or "", size)
    except BaseException:
        os.close(descriptor)
        raise
    stream = io.BufferedReader(raw)
    if gzipped:
        return CappedGzipFile(stream, path, cap or limits.current().MAX_DECOMPRESSED_BYTES,
                              setting or "MAX_DECOMPRESSED_BYTES")
    return stream


class CappedGzipFile(gzip.GzipFile):
    """A gzip file read that fails once it has given more than ``cap`` decompressed bytes (0: no cap).

    Unbounded reads (``read()``, ``readline()``) are done in steps, so a small file that inflates
    to gigabytes fails at the cap instead of first filling memory. Closing it closes ``stream``.
    """

    def __init__(self, stream: BinaryIO, label: Path, cap: int, setting: str = "MAX_DECOMPRESSED_BYTES"):
        super().__init__(fileobj=stream, mode="rb")
        self.stream = stream
        self.label = label
        self.cap = cap
        self.setting = setting

    def close(self):
        try:
            super().close()
        finally:
            self.stream.close()

    def _check(self, data):
        if self.cap and self.tell() > self.cap:
            raise OverSizeLimit(f"{self.label}: byte {self.cap}: decompresses to more than {self.cap} bytes "
                              f"(WAREHOUSE_{self.setting})")
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


def copy_input(path: Path, target: Path) -> None:
    """Copy an input (or a file beside it) byte for byte, read through :func:`open_binary`."""
    with open_binary(path, None, decompress=False) as stream, target.open("wb") as out:
        shutil.copyfileobj(stream, out, READ_STEP_BYTES)


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
            copy_input(path, copy)
            copy_input(wal, Path(f"{copy}-wal"))
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
