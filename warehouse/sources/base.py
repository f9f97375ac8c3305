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
import sqlite3
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

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


def open_binary(path: str | Path) -> BinaryIO:
    """Open a file for reading bytes, decompressing it on the fly when it is gzip."""
    path = Path(path)
    with path.open("rb") as probe:
        magic = probe.read(2)
    if magic == GZIP_MAGIC:
        return gzip.open(path, "rb")
    return path.open("rb")


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
