"""Readable times and sizes on hover in Datasette's tables and query results.

Cells keep the exact integer an analyst copies into SQL; a tooltip says what it means:
``ts``-like columns (Unix-epoch nanoseconds) as UTC wall time, durations (``dur``,
``*_dur``, ``*_ns``) as ``1.234 ms``, sizes (``*_bytes``) as ``1.5 MiB`` and bandwidths
(``*_bytes_per_s``) as ``2.0 GiB/s``. The column's name says its unit (DESIGN §3).
"""

from __future__ import annotations

from markupsafe import Markup, escape

from datasette_plugins import functions

#: a timestamp column holding a value past this is Unix-epoch time (2001 onwards), not a
#: clock started at the beginning of the run
EPOCH_FLOOR_NS = 1_000_000_000_000_000_000
TIMESTAMP_COLUMNS = {"ts", "start_ns", "end_ns", "ts_of_peak"}


def readable(column: str, value) -> str | None:
    """What ``value`` of ``column`` means in words, or None when the name says no unit."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if column in TIMESTAMP_COLUMNS or column.endswith("_ts"):
        return functions.ns_to_iso(value) if value >= EPOCH_FLOOR_NS else functions.format_ns(value)
    if column == "dur" or column.endswith(("_dur", "_ns")):
        return functions.format_ns(value)
    if column.endswith("_bytes_per_s"):
        return functions.format_rate(value)
    if column.endswith("_bytes"):
        return functions.format_bytes(value)
    return None


def render(column: str, value) -> Markup | None:
    """The cell's HTML: the number as it is, the readable form as its tooltip."""
    text = readable(column, value)
    if text is None:
        return None
    return Markup(f'<span class="wh-unit" title="{escape(text)}">{escape(str(value))}</span>')
