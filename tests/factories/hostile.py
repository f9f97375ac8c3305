"""Writers of small hostile inputs (issue 23): each is a few MB on disk at most.

- :func:`gzip_repeating` writes a gzip stream of ``prefix + fill * count + suffix`` without ever
  holding or compressing the whole: one chunk of ``fill`` is deflated once (a full flush, so it
  refers to nothing before it) and its compressed bytes repeated, which is a valid stream
  (2 GB of spaces in ~2 MB, written in well under a second); :func:`gzip_segments` does the same
  for any sequence of literal and repeated parts (operator-profile blocks of 1 GiB each).
- :func:`alter_db` runs SQL on an SQLite file a factory wrote (a rank db, an analysis.db).
- :func:`endless_view` replaces a table by a view over an endless recursive CTE.
- :func:`fifo`, :func:`link_to` make a FIFO and a symbolic link (to ``/dev/zero``).
- :func:`op_profile_block` frames one operator-profile block, with any declared size.
"""

from __future__ import annotations

import os
import sqlite3
import struct
import zlib
from pathlib import Path

from warehouse.synth.op_profile import frame_block

#: bytes of ``fill`` deflated at once
CHUNK = 1 << 20
#: the operator-profile block header (u64 contentSize, u8 type, u8 padding, u8 version, u8 0x5a)
BLOCK_HEADER = struct.Struct("<QBBBB")


def _deflated(data: bytes, final: bool) -> bytes:
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    return compressor.compress(data) + compressor.flush(zlib.Z_FINISH if final else zlib.Z_FULL_FLUSH)


def gzip_repeating(path: Path, prefix: bytes, fill: bytes, total_fill_bytes: int, suffix: bytes) -> Path:
    """A gzip file of ``prefix``, then ``fill`` repeated to ``total_fill_bytes`` bytes, then ``suffix``."""
    return gzip_segments(path, [prefix, (fill, total_fill_bytes), suffix])


def gzip_segments(path: Path, segments: list[bytes | tuple[bytes, int]]) -> Path:
    """A gzip file of ``segments`` in order: bytes as they are, ``(fill, total_bytes)`` as ``fill``
    repeated to ``total_bytes`` bytes (deflated once per MiB chunk, its compressed bytes repeated)."""
    crc, size = 0, 0
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as out:
        out.write(b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff")  # gzip header: deflate, no name, no mtime
        for segment in segments:
            if isinstance(segment, bytes):
                segment = (segment, len(segment)) if segment else (b"", 0)
            fill, total = segment
            if not total:
                continue
            chunk = (fill * (CHUNK // len(fill) + 1))[:CHUNK]
            repeats, rest = divmod(total, CHUNK)
            block = _deflated(chunk, final=False)
            for _ in range(repeats):
                out.write(block)
                crc = zlib.crc32(chunk, crc)
            out.write(_deflated(chunk[:rest], final=False))
            crc = zlib.crc32(chunk[:rest], crc)
            size += total
        out.write(_deflated(b"", final=True))
        out.write(struct.pack("<II", crc, size & 0xFFFFFFFF))
    return path


def alter_db(path: Path, *statements: str) -> Path:
    """Run ``statements`` on the SQLite file at ``path`` (one transaction) and close it."""
    conn = sqlite3.connect(path)
    try:
        with conn:
            for statement in statements:
                conn.execute(statement)
    finally:
        conn.close()
    return path


def endless_view(path: Path, table: str, columns: tuple[str, ...] = ("id", "value")) -> Path:
    """Replace ``table`` by a view whose rows never end (a recursive CTE without a stop)."""
    first, *others = columns
    select = ", ".join([f"n AS {first}", *(f"'x' || n AS {column}" for column in others)])
    return alter_db(
        path,
        f'DROP TABLE "{table}"',
        f'CREATE VIEW "{table}" AS WITH RECURSIVE c(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM c) '
        f"SELECT {select} FROM c",
    )


def fifo(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)
    return path


def link_to(path: Path, target: str | Path = "/dev/zero") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    os.symlink(target, path)
    return path


def op_profile_block(block_type: int, payload: bytes) -> bytes:
    """One block framed as ``msprof op`` writes it (see tests/factories/op_profile.py)."""
    return frame_block(block_type, payload)


def block_header(block_type: int, content_size: int) -> bytes:
    """A block header declaring ``content_size`` bytes (the payload is up to the caller)."""
    return BLOCK_HEADER.pack(content_size, block_type, 0, 0x5A, 0x5A)
