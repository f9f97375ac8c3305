"""Durations, sizes and bandwidths as a person reads them: one style for every text the warehouse writes.

The warehouse stores integer nanoseconds, bytes and bytes/s (DESIGN §3). Finding messages and
evidence notes (the rules, queries/diagnosis/), the compare report, Datasette's cells, its SQL
functions and its pages all write them by the rules of this module: ``format_ns(22484000)`` is
``'22.484 ms'``, ``format_bytes(1572864)`` ``'1.5 MiB'``, ``format_rate(2147483648)``
``'2.0 GiB/s'`` (binary units, as the Ascend tools and PyTorch report memory).

The rules are data (:data:`TIME`, :data:`SIZE`, :data:`RATE_SUFFIX`, all in :data:`TABLE`): the
pages' JavaScript (``WH.formatNs``...) reads :data:`TABLE` from the page and applies the same
steps, so a cell, a chart label and a SQL answer read alike. The rules call the functions in SQL
by the same names, defined wherever a named query runs: on SQLite by
:func:`warehouse.readonly.run_select` (and Datasette's ``prepare_connection``), on DuckDB and Spark
by their engines (as ``warehouse_format_ns``..., the transpiler renames the calls: DuckDB has a
``format_bytes`` of its own).

Standard library only: Spark ships these functions to its Python workers by value.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Context, Decimal

#: a ladder of units: the largest unit whose scale the magnitude reaches is written with
#: ``decimals`` decimals; below the smallest, the base unit, whole
TIME = {"units": [[10**9, "s"], [10**6, "ms"], [10**3, "us"]], "decimals": 3, "base": "ns"}
SIZE = {"units": [[1024**power, name] for power, name in ((5, "PiB"), (4, "TiB"), (3, "GiB"), (2, "MiB"), (1, "KiB"))],
        "decimals": 1, "base": "B"}
#: a bandwidth is a size per second
RATE_SUFFIX = "/s"
#: every rule, as the pages receive it (JSON)
TABLE = {"time": TIME, "size": SIZE, "rate_suffix": RATE_SUFFIX}
#: digits enough for any float's whole part and decimals (the default 28 would refuse 1e30)
_EXACT = Context(prec=400)


def _fixed(value: float, decimals: int) -> str:
    """``value`` with ``decimals`` decimals, halves rounded away from zero on the exact binary
    value (JavaScript's ``toFixed``; Python's own format rounds them to even), and no ``-0``."""
    magnitude = Decimal(abs(value)).quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP, context=_EXACT)
    return ("-" if value < 0 and magnitude else "") + format(magnitude, "f")


def _scaled(value, ladder: dict) -> str:
    """``value`` in the largest unit of ``ladder`` it reaches (module docstring)."""
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"not a finite number: {value}")
    for scale, unit in ladder["units"]:
        if abs(value) >= scale:
            return f"{_fixed(value / scale, ladder['decimals'])} {unit}"
    return f"{_fixed(value, 0)} {ladder['base']}"


def format_ns(ns) -> str:
    """A duration in nanoseconds: ns whole, then us, ms, s with three decimals."""
    return _scaled(ns, TIME)


def format_bytes(size) -> str:
    """A size in bytes: B whole, then KiB (1024 bytes) to PiB with one decimal."""
    return _scaled(size, SIZE)


def format_rate(bytes_per_s) -> str:
    """A bandwidth in bytes/s: a size per second (``2.0 GiB/s``)."""
    return format_bytes(bytes_per_s) + RATE_SUFFIX


def _sql_function(function):
    """NULL in, NULL out (the SQL convention), and NULL for what is no finite number (text,
    an infinity), as SQLite's own math functions answer: the formats only see numbers."""

    def sql_function(value):
        try:
            return None if value is None else function(value)
        except (TypeError, ValueError):
            return None

    return sql_function


#: the SQL functions of the named queries beyond SQLite's own: name -> one-argument function
SQL_FUNCTIONS = {function.__name__: _sql_function(function) for function in (format_ns, format_bytes, format_rate)}
