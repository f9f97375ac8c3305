"""Printing query results as a table, JSON (an array of objects) or CSV.

Every format writes a BLOB as its hex digits (never Python's ``b'...'``). CSV neutralises
formula injection as OWASP's CSV injection guidance says: a text cell starting with ``=``,
``+``, ``-``, ``@``, a tab or a carriage return gets a leading single quote, so a spreadsheet
shows it as text instead of evaluating it; numbers (negative ones included) stay numbers.
"""

from __future__ import annotations

import itertools
import json

from tabulate import tabulate

FORMATS = ("table", "json", "csv")
#: what a spreadsheet takes as the start of a formula (OWASP, CSV injection)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: what makes a CSV field quoted
CSV_SPECIAL = (",", '"', "\r", "\n")


def render(columns: list[str], rows: list[tuple], fmt: str) -> str:
    """The rows in format ``fmt`` (one of :data:`FORMATS`), as text ending in a newline."""
    if fmt == "json":
        return json.dumps([dict(zip(columns, row)) for row in rows], indent=2, default=_bytes_as_hex) + "\n"
    if fmt == "csv":
        return csv_text(columns, rows)
    rows = [tuple(v.hex() if isinstance(v, bytes) else v for v in row) for row in rows]
    return tabulate(rows, headers=columns, disable_numparse=True) + "\n"


def csv_text(columns: list[str], rows: list[tuple]) -> str:
    """The header and rows as CSV (RFC 4180 fields, rows ending in ``\\n``), every cell through :func:`csv_cell`.

    As :mod:`csv`'s writer with minimal quoting, except that a field holding a carriage return
    is quoted too (the writer leaves it bare when rows end in ``\\n``, and readers then split the row).
    """
    return "".join(_csv_row(row) for row in itertools.chain([columns], rows))


def _csv_row(row) -> str:
    fields = [_csv_field(csv_cell(value)) for value in row]
    if fields == [""]:
        fields = ['""']  # a row of one empty field, not an empty line
    return ",".join(fields) + "\n"


def _csv_field(value) -> str:
    if value is None:
        return ""
    text = value if isinstance(value, str) else repr(value) if isinstance(value, float) else str(value)
    if any(c in text for c in CSV_SPECIAL):
        return '"' + text.replace('"', '""') + '"'
    return text


def csv_cell(value):
    """One CSV cell: a BLOB as hex, text that a spreadsheet would run as a formula behind a single quote.

    Numbers (int, float) are returned as they are, so ``-5`` stays the number -5; only text
    is neutralised (the text ``'-5'`` becomes ``'-5`` with the quote).
    """
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def _bytes_as_hex(value):
    if isinstance(value, bytes):
        return value.hex()
    raise TypeError(f"cannot render {type(value).__name__}")
