"""Printing query results as a table, JSON (an array of objects) or CSV.

Every format writes a BLOB as its hex digits (never Python's ``b'...'``). CSV neutralises
formula injection as OWASP's CSV injection guidance says: a text cell starting with ``=``,
``+``, ``-``, ``@``, a tab or a carriage return gets a leading single quote, so a spreadsheet
shows it as text instead of evaluating it; numbers (negative ones included) stay numbers.
"""

from __future__ import annotations

import itertools
import json
import re

FORMATS = ("table", "json", "csv")
#: what a spreadsheet takes as the start of a formula (OWASP, CSV injection)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: what makes a CSV field quoted
CSV_SPECIAL = (",", '"', "\r", "\n")
#: what only tabulate lays out as tabulate does: line breaks (cells of several lines) and the
#: escape that starts an ANSI code (which it measures as invisible)
NOT_PLAIN = re.compile("[\r\n\x1b]")


def render(columns: list[str], rows: list[tuple], fmt: str) -> str:
    """The rows in format ``fmt`` (one of :data:`FORMATS`), as text ending in a newline."""
    if fmt == "json":
        return json.dumps([dict(zip(columns, row)) for row in rows], indent=2, default=bytes_as_hex) + "\n"
    if fmt == "csv":
        return csv_text(columns, rows)
    rows = [tuple(v.hex() if isinstance(v, bytes) else v for v in row) for row in rows]
    return table_text(columns, rows) + "\n"


def table_text(columns: list[str], rows: list[tuple]) -> str:
    """The rows as tabulate's ``simple`` table with ``disable_numparse``: every cell as text,
    stripped and left-aligned, columns two spaces apart, no trailing spaces.

    Importing tabulate takes about 35 ms, more than half of Python's own start, which every
    ``warehouse sql`` and ``warehouse query`` answer paid; this writes the same text for cells of
    one line without escape codes and hands any other table to tabulate.
    tests/test_output.py checks that both write the same text.
    """
    headers = [str(column) for column in columns]
    texts = [["" if value is None else str(value) for value in row] for row in rows]
    if not headers or any(NOT_PLAIN.search(text) for text in itertools.chain(headers, *texts)):
        from tabulate import tabulate

        return tabulate(rows, headers=columns, disable_numparse=True)
    cells = [[text.strip() for text in row] for row in texts]
    widths = [max([len(header) + 2, *(len(row[i]) for row in cells)]) for i, header in enumerate(headers)]
    lines = (headers, ["-" * width for width in widths], *cells)
    return "\n".join("  ".join(text.ljust(width) for text, width in zip(line, widths)).rstrip() for line in lines)


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


def bytes_as_hex(value):
    """``json.dumps``'s ``default``: a BLOB as its hex digits (any other type it cannot write is an error)."""
    if isinstance(value, bytes):
        return value.hex()
    raise TypeError(f"cannot render {type(value).__name__}")
