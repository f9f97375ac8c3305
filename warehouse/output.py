"""Printing query results as a table, JSON (an array of objects) or CSV."""

from __future__ import annotations

import csv
import io
import json

from tabulate import tabulate

FORMATS = ("table", "json", "csv")


def render(columns: list[str], rows: list[tuple], fmt: str) -> str:
    """The rows in format ``fmt`` (one of :data:`FORMATS`), as text ending in a newline."""
    if fmt == "json":
        return json.dumps([dict(zip(columns, row)) for row in rows], indent=2, default=_bytes_as_hex) + "\n"
    if fmt == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(columns)
        writer.writerows(rows)
        return buffer.getvalue()
    return tabulate(rows, headers=columns, disable_numparse=True) + "\n"


def _bytes_as_hex(value):
    if isinstance(value, bytes):
        return value.hex()
    raise TypeError(f"cannot render {type(value).__name__}")
