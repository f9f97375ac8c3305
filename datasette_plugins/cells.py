"""Readable times, sizes and ratios in Datasette's tables and query results.

A person reads ``1.235 ms`` where the warehouse stores ``1234567``: the cell shows the
readable form and keeps the exact stored value as its tooltip (``title``), the value an
analyst copies into SQL; JSON and CSV answers are untouched (``render_cell`` only shapes
HTML). ``ts``-like columns (Unix-epoch nanoseconds) read as UTC wall time, durations
(``dur``, ``*_dur``, ``*_ns``, ``*_us``) as ``1.235 ms``, sizes (``*_bytes``) as
``1.5 MiB``, bandwidths (``*_bytes_per_s``) as ``2.0 GiB/s``: the column's name says its
unit (DESIGN §3). Any other fraction (a ratio, a share, an efficiency: ``0.37283684394130223``)
reads with four significant digits (``0.3728``); its unit, when it has one, is the query's
to say, so the value is rounded, never rescaled.
"""

from __future__ import annotations

from markupsafe import Markup, escape

from datasette_plugins import functions

#: a timestamp column holding a value past this is Unix-epoch time (2001 onwards), not a
#: clock started at the beginning of the run
EPOCH_FLOOR_NS = 1_000_000_000_000_000_000
TIMESTAMP_COLUMNS = {"ts", "start_ns", "end_ns", "ts_of_peak"}
#: significant digits of a fraction without a unit
SIGNIFICANT_DIGITS = 4


def readable(column: str, value) -> str | None:
    """What ``value`` of ``column`` means in words, or None when it reads well as it is."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if column in TIMESTAMP_COLUMNS or column.endswith("_ts"):
        return functions.ns_to_iso(value) if value >= EPOCH_FLOOR_NS else functions.format_ns(value)
    if column == "dur" or column.endswith(("_dur", "_ns")):
        return functions.format_ns(value)
    if column.endswith("_us"):
        return functions.format_ns(value * 1_000)
    if column.endswith("_bytes_per_s"):
        return functions.format_rate(value)
    if column.endswith("_bytes"):
        return functions.format_bytes(value)
    if isinstance(value, float) and not value.is_integer():
        return rounded(value)
    return None


def rounded(value: float) -> str:
    """A fraction with four significant digits; a large one to the unit (no exponent)."""
    if abs(value) >= 10 ** SIGNIFICANT_DIGITS:
        return f"{value:.0f}"
    return f"{value:.{SIGNIFICANT_DIGITS}g}"


def render(column: str, value) -> Markup | None:
    """The cell's HTML: the readable form, the exact stored value as its tooltip."""
    text = readable(column, value)
    if text is None:
        return None
    return Markup(f'<span class="wh-unit" title="{escape(str(value))}">{escape(text)}</span>')
