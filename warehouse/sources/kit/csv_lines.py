"""The CSV checks that stay in Python when DuckDB reads a file: its bytes first, its records on a failure.

DuckDB reads a CSV export in bulk (:mod:`warehouse.sources.kit.duck`) but does not say what the
warehouse says of a bad file: it reads a NUL byte as data, drops the records after a quote that
is never closed, and numbers the lines of its errors its own way. So the file's bytes are checked
first (:func:`check_bytes`, one pass through :func:`~warehouse.sources.base.open_binary`, which also
bounds the read by the file's size cap and deadline), and when DuckDB refuses the file, a cell
does not convert or a record is short, the records are read again by the record reader of
:mod:`warehouse.sources.kit.text` (:func:`reread`), which names the line and the column as
every other CSV source does.
"""

from __future__ import annotations

from dataclasses import dataclass

from warehouse.sources.base import GZIP_MAGIC, READ_STEP_BYTES, open_binary
from warehouse.sources.kit.text import Plan, convert_row, open_records


@dataclass(frozen=True)
class ByteScan:
    """What one pass over a CSV file's (decompressed) bytes found."""

    #: the file is gzip (DuckDB is told to decompress it)
    gzipped: bool
    #: it holds a NUL byte (not a CSV text file: the record reader names the line)
    nul: bool
    #: an odd number of double quotes: a quoted field may run to the end of the file
    odd_quotes: bool
    #: physical lines (newlines, plus a last line without one)
    lines: int


def check_bytes(path) -> ByteScan:
    """One bounded pass over the file's bytes: NUL bytes, the parity of its double quotes, its lines."""
    quotes = newlines = 0
    nul = False
    last = b""
    with open_binary(path) as stream:
        while chunk := stream.read(READ_STEP_BYTES):
            quotes += chunk.count(b'"')
            newlines += chunk.count(b"\n")
            nul = nul or b"\0" in chunk
            last = chunk[-1:]
    with open_binary(path, decompress=False) as raw:
        gzipped = raw.read(len(GZIP_MAGIC)) == GZIP_MAGIC
    return ByteScan(gzipped=gzipped, nul=nul, odd_quotes=quotes % 2 == 1,
                    lines=newlines + (last not in (b"", b"\n")))


def reread(path, plan: Plan, convert: int | None) -> tuple[int, list[int]]:
    """Read the records again with the record reader: how many there are and the lines of the short ones.

    :param convert: the number of the record (from 1) whose planned columns are converted too (0: none,
        None: every record).
    :raises IngestError: where the record reader does (the line of a malformed record, a NUL byte,
        text that is not UTF-8), or naming the line and column of the converted record's bad cell.
    """
    count = 0
    with open_records(path) as records:
        for number, line, row, short in records:
            count = number
            if convert is None or number == convert:
                convert_row(path, line, row, plan, short)
        return count, records.short_lines
