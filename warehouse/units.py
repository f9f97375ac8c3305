"""Durations and sizes as a person reads them: one style for every text the warehouse writes.

The warehouse stores integer nanoseconds and bytes (DESIGN §3). Finding messages and evidence
notes (the rules, queries/diagnosis/), Datasette's cells and its SQL functions all write them
with these two functions: ``format_ns(22484000)`` is ``'22.484 ms'``, ``format_bytes(1572864)``
``'1.5 MiB'``. The rules call them as SQL functions of the same names, defined wherever a named
query runs: on SQLite by :func:`warehouse.readonly.run_select` (and Datasette's
``prepare_connection``), on DuckDB and Spark by their engines (as ``warehouse_format_ns``...,
the transpiler renames the calls: DuckDB has a ``format_bytes`` of its own).

Standard library only: Spark ships these functions to its Python workers by value.
"""

from __future__ import annotations

TIME_UNITS = ((1_000_000_000, "s"), (1_000_000, "ms"), (1_000, "us"))
BYTE_UNITS = ("KiB", "MiB", "GiB", "TiB", "PiB")


def format_ns(ns) -> str:
    """The largest unit that keeps the number at least 1, three decimals."""
    value = float(ns)
    for scale, unit in TIME_UNITS:
        if abs(value) >= scale:
            return f"{value / scale:.3f} {unit}"
    return f"{value:.0f} ns"


def format_bytes(size) -> str:
    """Binary units (KiB = 1024 bytes), as the Ascend tools and PyTorch report memory."""
    value = float(size)
    if abs(value) < 1024:
        return f"{value:.0f} B"
    for unit in BYTE_UNITS:
        value /= 1024
        if abs(value) < 1024 or unit == BYTE_UNITS[-1]:
            return f"{value:.1f} {unit}"


def _null_in_null_out(function):
    """NULL in, NULL out (the SQL convention), so the formats only see numbers."""

    def sql_function(value):
        return None if value is None else function(value)

    return sql_function


#: the SQL functions of the named queries beyond SQLite's own: name -> one-argument function
SQL_FUNCTIONS = {"format_ns": _null_in_null_out(format_ns), "format_bytes": _null_in_null_out(format_bytes)}
