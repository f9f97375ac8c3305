"""What the text-export sources share: reading their CSV and JSON files, units.

torch_npu's ``export_type=text`` writes CSV and JSON files beside (or instead of) the rank
db. Their quirks, seen in real files: timestamps end in a TAB (``1736408883704643.212\\t``),
shapes are triple-quoted (three double quotes around ``32,3,224,224``), missing values are ``N/A`` or empty,
lines end in CRLF, and multi-line quoted fields (call stacks) occur. Units are converted
exactly from the decimal text (never through a float): us -> ns, MB/KB -> bytes, GB/s -> bytes/s.

A source module describes its file as a :class:`CsvTable` (the header names it requires
and how each column converts), which :func:`warehouse.sources.kit.csv_bulk.ingest_csv` reads; the
``source_row`` of every row is its data-record number (1 = the first record after the header).
"""

from __future__ import annotations

import csv
import io
import json
import re
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from warehouse.errors import IngestError
from warehouse.sources.base import Outcome, open_binary, read_head
from warehouse.sources.kit.numbers import INT64_DIGITS, int64, whole
from warehouse.sources.kit.rank_layout import rank_or_unknown

#: Values the exports write for "no value".
MISSING = frozenset({"", "N/A", "NA", "n/a", "None", "null", "NULL", "-"})
#: Binary units of the memory files (torch_npu divides by 1024 and 1024 * 1024).
KIB = 1024
MIB = 1024 * 1024
#: Decimal units of the communication files (their MB / ms gives GB/s, so 10**6 bytes).
MB = 10**6
GB = 10**9
DEVICE = re.compile(r"^(?:NPU\s*:?\s*)?(\d+)$", re.IGNORECASE)
#: Largest field the CSV reader accepts: operator_details.csv call stacks can pass the module's 128 KiB default.
FIELD_LIMIT = 1 << 26


def text(value: Any) -> str | None:
    """The cell as text: stripped, ``N/A``/empty as None, triple quotes of shapes removed."""
    if value is None:
        return None
    if not isinstance(value, str):
        return str(value)
    value = value.strip()
    if value in MISSING:
        return None
    if len(value) >= 2 and value[0] == value[-1] == '"':
        value = value.strip('"')
    return value


def decimal(value: str | Decimal | int | float | None) -> Decimal | None:
    """The exact decimal value of a cell (None when missing)."""
    if isinstance(value, Decimal) or value is None:
        return value
    if isinstance(value, bool):
        raise ValueError(f"not a number: {value!r}")
    if isinstance(value, (int, float)):
        return Decimal(str(value))
    cleaned = text(value)
    if cleaned is None:
        return None
    try:
        return Decimal(cleaned)
    except InvalidOperation:
        raise ValueError(f"not a number: {cleaned!r}") from None


def scaled(factor: int) -> Callable[[Any], int | None]:
    """A converter multiplying the exact value by ``factor`` and rounding to an integer (half even).

    For a power of ten the common case (plain decimal text with no more decimals than the
    power) is done on the digits, without Decimal; anything else goes through Decimal.
    """
    digits = len(str(factor)) - 1 if str(factor).rstrip("0") == "1" else None
    digits_of_factor = len(str(factor))

    def exact(value):
        number = decimal(value)
        if number is None:
            return None
        # checked before rounding: 1e999999999 would otherwise become a billion-digit int
        if not number.is_finite() or number.adjusted() + digits_of_factor > INT64_DIGITS:
            raise ValueError(f"number out of range: {value!r}")
        return int64(int((number * factor).to_integral_value()), value)

    if digits is None:
        return exact

    def convert(value):
        if type(value) is str:
            value = value.strip()
            if value in MISSING:
                return None
            integral, _, fraction = value.partition(".")
            if len(fraction) <= digits and "_" not in value:
                try:
                    number = int(integral + fraction.ljust(digits, "0"))
                except ValueError:
                    number = None
                if number is not None:
                    return int64(number, value)
        return exact(value)

    return convert


us_to_ns = scaled(1000)
ms_to_ns = scaled(10**6)
kib_to_bytes = scaled(KIB)
mib_to_bytes = scaled(MIB)
mb_to_bytes = scaled(MB)
gb_per_s_to_bytes_per_s = scaled(GB)
integer = scaled(1)


def real(value) -> float | None:
    """A ratio, rate or percentage as a float (None when missing)."""
    if type(value) is str:
        value = value.strip()
        if value in MISSING:
            return None
        try:
            return float(value)
        except ValueError:
            raise ValueError(f"not a number: {value!r}") from None
    number = decimal(value)
    return None if number is None else float(number)


def us2_to_ns2(value) -> float | None:
    """A variance of times in us^2, in ns^2."""
    number = real(value)
    return None if number is None else number * 1e6


def device_id(value) -> int | None:
    """The device number of ``NPU:0`` / ``0`` (None for ``host``, ``CPU`` or missing)."""
    match = DEVICE.match(text(value) or "")
    return whole(match[1]) if match else None


def scalar(value) -> int | float | str | None:
    """A cell of an unknown column: a number when it reads as one, else its text."""
    cleaned = text(value)
    if cleaned is None:
        return None
    try:
        number = Decimal(cleaned)
    except InvalidOperation:
        return cleaned
    if not number.is_finite():
        return cleaned
    return float(number) if any(mark in cleaned for mark in ".eE") else int(number)


@dataclass(frozen=True)
class Column:
    """One column of a table and the CSV header(s) it is read from."""

    #: column of the warehouse table
    name: str
    #: header names in the CSV (aliases across variants), first found wins
    headers: tuple[str, ...]
    #: converter from the cell text
    convert: Callable[[Any], Any] = text


@dataclass(frozen=True)
class CsvTable:
    """How one CSV export maps onto one warehouse table."""

    table: str
    #: header names every file of this kind has (detection by content)
    required: frozenset[str]
    columns: tuple[Column, ...]
    #: header names that must be absent (to tell look-alike files apart)
    excluded: frozenset[str] = field(default_factory=frozenset)
    #: statement run after the insert with :source_id (fills columns the file implies)
    finish: str | None = None
    #: the file is about a whole cluster, no one rank: its source has no rank (NULL), and ``finish``
    #: gives each row the rank it is about
    cluster: bool = False


#: byte-order marks of UTF-16 text (a CSV saved as "Unicode" by a spreadsheet)
UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


def csv_header(path: str | Path) -> list[str] | None:
    """The header names of a CSV file from its first line, or None if it does not look like CSV.

    A UTF-16 file (with its byte-order mark) and a file with NUL bytes are still recognised by
    their header, so that reading them fails with a reason instead of the file being skipped.
    """
    head = read_head(path, 8192)
    if not head:
        return None
    if head.startswith(UTF16_BOMS):
        try:
            first = head[: len(head) // 2 * 2].decode("utf-16").split("\n", 1)[0]
        except UnicodeDecodeError:
            return None
    else:
        line = head.split(b"\n", 1)[0]
        if line.count(b"\0") * 2 > len(line) + 1 and not line.replace(b"\0", b"").isascii():
            return None  # binary, not a text file with a stray NUL
        try:
            first = line.replace(b"\0", b"").decode("utf-8-sig")
        except UnicodeDecodeError:
            return None
    if "," not in first or first.lstrip().startswith(("{", "[")):
        return None
    return [name.strip() for name in next(csv.reader([first]))]


def has_headers(path: str | Path, required: frozenset[str], excluded: frozenset[str] = frozenset()) -> bool:
    """Whether the file's CSV header has every ``required`` name and no ``excluded`` one (never raises)."""
    header = csv_header(path)
    if header is None:
        return False
    names = set(header)
    return required <= names and not (excluded & names)


class CsvRecords:
    """The data records of a CSV export, read once: ``header`` and, iterating,
    (record number from 1, physical line, fields, short).

    A record with fewer fields than the header (real exports have some) is kept with its
    missing fields absent and ``short`` true (its line noted in ``short_lines``), so the
    caller converts it leniently and says so in ``source.detail``.

    :raises IngestError: on undecodable text, a malformed record or a record longer than the header.
    """

    def __init__(self, stream: io.TextIOBase, path):
        self.path = path
        if csv.field_size_limit() < FIELD_LIMIT:
            csv.field_size_limit(FIELD_LIMIT)
        self._reader = csv.reader(_without_nul(stream, path))
        self.header = [name.strip() for name in self._guard(lambda: next(self._reader, []))]
        self.short_lines: list[int] = []

    def __iter__(self) -> Iterator[tuple[int, int, list[str], bool]]:
        width = len(self.header)
        reader = self._reader
        number = 0
        while (row := self._guard(lambda: next(reader, None))) is not None:
            if not row:
                continue
            number += 1
            if len(row) > width:
                raise IngestError(f"{self.path}: line {reader.line_num}: {len(row)} fields for a header of {width}")
            short = len(row) < width
            if short:
                self.short_lines.append(reader.line_num)
            yield number, reader.line_num, row, short

    def _guard(self, read):
        try:
            return read()
        except UnicodeDecodeError as exc:
            utf16 = " (the file is UTF-16: save it as UTF-8)" if exc.object[:2] in UTF16_BOMS else ""
            raise IngestError(
                f"{self.path}: line {self._reader.line_num + 1}: not UTF-8 text ({exc.reason}){utf16}") from None
        except csv.Error as exc:
            raise IngestError(f"{self.path}: line {self._reader.line_num}: {exc}") from None


def _without_nul(stream: io.TextIOBase, path) -> Iterator[str]:
    """The stream's lines; a NUL character fails the file (Python's csv module would read it as data).

    :raises IngestError: naming the line.
    """
    for number, line in enumerate(stream, 1):
        if "\0" in line:
            raise IngestError(f"{path}: line {number}: a NUL byte (column {line.index(chr(0)) + 1}); "
                              "not a CSV text file (UTF-16 or binary?)")
        yield line


@contextmanager
def open_records(path: str | Path) -> Iterator[CsvRecords]:
    """Open a CSV export (gzip or not) for :class:`CsvRecords`; the text wrapper is closed too (left to the
    garbage collector it warns "unclosed file")."""
    with open_binary(path) as stream, io.TextIOWrapper(stream, encoding="utf-8-sig", newline="") as text_stream:
        yield CsvRecords(text_stream, path)


#: Where each column of a table is in one file: (field index or None, converter, header).
Plan = list[tuple[int | None, Callable[[Any], Any], str | None]]


def column_plan(header: list[str], columns: tuple[Column, ...]) -> Plan:
    """Resolve each column's header (first alias present) to its field index, once per file."""
    positions = {name: index for index, name in reversed(list(enumerate(header)))}
    plan = []
    for column in columns:
        found = next((name for name in column.headers if name in positions), None)
        plan.append((positions.get(found), column.convert, found))
    return plan


def convert_row(path, line: int, row: list[str], plan: Plan, lenient: bool = False) -> list:
    """The converted values of a record's planned columns (None for absent fields).

    :raises IngestError: naming the line and header when a field does not convert, unless
        ``lenient`` (a short record, whose fields after the gap are shifted): then that field
        and every later one are None, since none of them can be trusted.
    """
    if not lenient:
        try:
            return [None if index is None else convert(row[index]) for index, convert, _ in plan]
        except ValueError:
            pass  # convert again cell by cell to name the one that failed
    values: list = [None] * len(plan)
    trusted = {index for index, _, _ in plan if index is not None}
    if lenient:
        trusted = set(range(_first_failure(row, plan)))
    for position, (index, convert, header) in enumerate(plan):
        if index is None or index >= len(row) or index not in trusted:
            continue
        try:
            values[position] = convert(row[index])
        except ValueError as exc:
            raise IngestError(f"{path}: line {line}: column {header!r}: {exc}") from None
    return values


def _first_failure(row: list[str], plan: Plan) -> int:
    """The index of the first field of ``row`` that its column cannot convert (len(row) if none)."""
    converters = {index: convert for index, convert, _ in plan if index is not None}
    for index, field_text in enumerate(row):
        convert = converters.get(index)
        if convert is None:
            continue
        try:
            convert(field_text)
        except ValueError:
            return index
    return len(row)


def short_record_note(short_lines: list[int]) -> dict:
    """The ``source.detail`` entry for records shorter than the header (none when there are none)."""
    if not short_lines:
        return {}
    return {"short_records": {
        "lines": short_lines[:100],
        "count": len(short_lines),
        "note": "fewer fields than the header, so the fields after the gap are shifted: values from the first "
                "field that does not convert on are NULL (kernel rows keep the raw fields in metrics)",
    }}


def insert_sql(table: str, columns: list[str]) -> str:
    """``INSERT INTO table (columns) VALUES (?, ...)``."""
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"


def load_json(path: str | Path, setting: str = "MAX_DECOMPRESSED_BYTES") -> Any:
    """A JSON file with its non-integer numbers as exact decimals, read whole: at most the bytes
    the limit ``setting`` allows (:func:`~warehouse.sources.base.open_binary`).

    :raises IngestError: naming the byte offset of a syntax error, or the size over the limit.
    """
    with open_binary(path, setting) as stream:
        data = stream.read()
    try:
        return json.loads(data, parse_float=Decimal)
    except json.JSONDecodeError as exc:
        raise IngestError(f"{path}: byte {exc.pos}: invalid JSON ({exc.msg})") from None
    except ValueError:  # the only other one: an integer past Python's 4300-digit conversion limit
        raise IngestError(f"{path}: invalid JSON (an integer of over 4300 digits)") from None
    except UnicodeDecodeError as exc:
        raise IngestError(f"{path}: byte {exc.start}: not UTF-8 text") from None
    except RecursionError:
        raise IngestError(f"{path}: invalid JSON (nested too deeply)") from None


def load_json_object(path: str | Path) -> dict:
    """A JSON file of settings whose top level must be an object (profiler_info, profiler_metadata,
    communication_group: KBs), at most ``MAX_SIDECAR_BYTES`` (see :func:`load_json`)."""
    document = load_json(path, "MAX_SIDECAR_BYTES")
    if not isinstance(document, dict):
        raise IngestError(f"{path}: top level: expected an object, found {type(document).__name__}")
    return document


def json_head(path: str | Path, size: int = 8192) -> str:
    """The start of a JSON file as text with whitespace squeezed ('' when not text)."""
    head = read_head(path, size)
    try:
        decoded = head.decode("utf-8-sig")
    except UnicodeDecodeError:
        decoded = head[: len(head) - 3].decode("utf-8", errors="ignore")
    return re.sub(r"\s+", "", decoded)


def to_json(value: Any) -> str:
    """JSON text of a parsed value (decimals written back as numbers)."""
    return json.dumps(value, default=_number, ensure_ascii=False)


def _number(value):
    if isinstance(value, Decimal):
        return float(value)
    raise TypeError(f"not JSON serialisable: {type(value).__name__}")


def insert_metadata(conn: sqlite3.Connection, source_id: int, rank_id: int | None, document: dict) -> int:
    """One ``run_metadata`` row per top-level key: scalars as text, objects and lists as JSON."""
    rows = [
        (source_id, rank_id, name, value if isinstance(value, str) or value is None else to_json(value))
        for name, value in document.items()
    ]
    conn.executemany("INSERT INTO run_metadata (source_id, rank_id, name, value) VALUES (?, ?, ?, ?)", rows)
    return len(rows)
