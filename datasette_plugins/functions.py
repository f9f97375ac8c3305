"""SQL functions for analysts, registered on every Datasette connection.

The warehouse stores integer nanoseconds and bytes (DESIGN §3) so that sums stay exact;
these functions turn them into what a person reads (``format_ns(1234567)`` is
``'1.235 ms'``) and add the statistics SQLite lacks (``median``, ``percentile``).
Each function is documented by an example whose result a test checks, and the same
table is shown on the database page.
"""

from __future__ import annotations

import math
import sqlite3
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Callable

from warehouse.units import format_bytes, format_ns, format_rate  # the warehouse's one style (finding messages too)


@dataclass(frozen=True)
class SqlFunction:
    """One SQL function: its name, arity, implementation and documentation by example."""

    name: str
    arity: int
    implementation: Callable
    doc: str
    example: str
    result: object


def _nullable(function):
    """NULL in, NULL out (the SQL convention), so the implementations only see values."""

    def wrapper(*args):
        if any(arg is None for arg in args):
            return None
        try:
            return function(*args)
        except (TypeError, ValueError, OverflowError):
            return None  # text where a number belongs: NULL, as SQLite's own math functions do

    return wrapper


def ns_to_us(ns):
    return float(ns) / 1e3


def ns_to_ms(ns):
    return float(ns) / 1e6


def ns_to_s(ns):
    return float(ns) / 1e9


def ns_to_iso(ns):
    """Real profiles stamp Unix-epoch nanoseconds: show them as UTC wall time."""
    seconds, rest = divmod(int(ns), 1_000_000_000)
    moment = datetime.fromtimestamp(seconds, tz=timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S") + f".{rest:09d}Z"


def pct(part, whole):
    """``part`` as a percentage of ``whole``, two decimals; NULL when ``whole`` is 0."""
    if float(whole) == 0:
        return None
    return round(100.0 * float(part) / float(whole), 2)


def per_second(amount, dur_ns):
    """A rate: ``amount`` (bytes, FLOPs, events) per second over ``dur_ns``."""
    if float(dur_ns) == 0:
        return None
    return float(amount) * 1e9 / float(dur_ns)


def shorten(text, width):
    """Long kernel names cut in the middle (their start and end are what tell them apart)."""
    text, width = str(text), int(width)
    if len(text) <= width or width < 5:
        return text
    head = (width - 1) // 2
    return text[:head] + "…" + text[len(text) - (width - 1 - head):]


class Percentile:
    """Aggregate ``percentile(x, p)``: linear interpolation between the closest ranks
    (numpy's default and msprof-analyze's), ``p`` from 0 to 100."""

    def __init__(self):
        self.values: list[float] = []
        self.p = None

    def step(self, value, p):
        if value is not None:
            self.values.append(float(value))
        if p is not None:
            self.p = float(p)

    def finalize(self):
        if not self.values or self.p is None or not 0 <= self.p <= 100:
            return None
        values = sorted(self.values)
        position = (len(values) - 1) * self.p / 100
        low, high = math.floor(position), math.ceil(position)
        return values[low] + (values[high] - values[low]) * (position - low)


class Median(Percentile):
    """Aggregate ``median(x)``: ``percentile(x, 50)``."""

    def step(self, value):
        super().step(value, 50)


FUNCTIONS = (
    SqlFunction("ns_to_us", 1, _nullable(ns_to_us), "Nanoseconds to microseconds (a float).",
                "ns_to_us(1500)", 1.5),
    SqlFunction("ns_to_ms", 1, _nullable(ns_to_ms), "Nanoseconds to milliseconds (a float).",
                "ns_to_ms(2500000)", 2.5),
    SqlFunction("ns_to_s", 1, _nullable(ns_to_s), "Nanoseconds to seconds (a float).",
                "ns_to_s(3000000000)", 3.0),
    SqlFunction("format_ns", 1, _nullable(format_ns),
                "A duration as text in the largest fitting unit (ns, us, ms, s), three decimals.",
                "format_ns(1234567)", "1.235 ms"),
    SqlFunction("format_bytes", 1, _nullable(format_bytes),
                "A size as text in binary units (B, KiB, MiB, GiB, TiB, PiB).",
                "format_bytes(1572864)", "1.5 MiB"),
    SqlFunction("format_rate", 1, _nullable(format_rate), "A bandwidth in bytes/s as text.",
                "format_rate(2147483648)", "2.0 GiB/s"),
    SqlFunction("ns_to_iso", 1, _nullable(ns_to_iso),
                "Unix-epoch nanoseconds (real profiles' clock) as UTC ISO 8601 text.",
                "ns_to_iso(1700000000123456789)", "2023-11-14T22:13:20.123456789Z"),
    SqlFunction("pct", 2, _nullable(pct), "part as a percentage of whole, two decimals; NULL if whole is 0.",
                "pct(1, 3)", 33.33),
    SqlFunction("per_second", 2, _nullable(per_second),
                "A rate: amount (bytes, FLOPs, events) per second over dur_ns nanoseconds.",
                "per_second(4096, 2000)", 2048000000.0),
    SqlFunction("shorten", 2, _nullable(shorten), "Text cut in the middle to at most width characters.",
                "shorten('aclnnFlashAttentionScore_Grad', 11)", "aclnn…_Grad"),
    SqlFunction("median", 1, Median, "Aggregate: the median of a column (NULLs ignored).",
                "median(value) FROM (SELECT 1 AS value UNION ALL SELECT 2 UNION ALL SELECT 10)", 2.0),
    SqlFunction("percentile", 2, Percentile,
                "Aggregate: the p-th percentile (0-100) of a column, linear interpolation as numpy.",
                "percentile(value, 90) FROM (SELECT 1 AS value UNION ALL SELECT 2 UNION ALL SELECT 10)", 8.4),
    SqlFunction("string_value", 1, None,
                "The text of an interned string id (table string), for the underscore tables.",
                "string_value((SELECT min(id) FROM string)) IS NOT NULL", 1),
)


def register(conn: sqlite3.Connection) -> None:
    """Add every function of :data:`FUNCTIONS` to ``conn``."""
    for function in FUNCTIONS:
        if function.name == "string_value":
            conn.create_function("string_value", 1, _string_lookup(conn), deterministic=True)
        elif isinstance(function.implementation, type):
            conn.create_aggregate(function.name, function.arity, function.implementation)
        else:
            conn.create_function(function.name, function.arity, function.implementation, deterministic=True)


def _string_lookup(conn: sqlite3.Connection):
    """``string_value(id)`` reads the interning table through its own cursor on ``conn``
    (SQLite allows a function to query the connection that calls it)."""

    def string_value(string_id):
        if string_id is None:
            return None
        try:
            row = conn.execute("SELECT value FROM string WHERE id = ?", (string_id,)).fetchone()
        except sqlite3.Error:
            return None  # not a warehouse: no string table
        return row[0] if row else None

    return string_value
