"""Number formatting shared by the report's renderers.

Each returns plain text that the renderers escape; a value that is not a number (a wrongly
typed input row) is shown as it is rather than failing the report.
"""

from __future__ import annotations

import json
from numbers import Real


def ms(ns: int | float | None) -> str:
    """Nanoseconds as milliseconds with 3 decimals ('-' for none)."""
    return _number(ns, lambda v: f"{v / 1e6:,.3f}")


def us(ns: int | float | None) -> str:
    """Nanoseconds as microseconds with 1 decimal ('-' for none)."""
    return _number(ns, lambda v: f"{v / 1e3:,.1f}")


def pct(ratio: float | None) -> str:
    """A 0-1 ratio as a percentage."""
    return _number(ratio, lambda v: f"{100 * v:.1f}%")


def gib(size: int | None) -> str:
    """Bytes as GiB with 2 decimals (the header names the unit)."""
    return _number(size, lambda v: f"{v / 2**30:,.2f}")


def general(value) -> str:
    """A value as a query gave it: a float to 6 significant digits, anything else as :func:`text_of` shows it."""
    if isinstance(value, float):
        return f"{value:.6g}"
    return text_of(value)


def numbers(text: str) -> str:
    """A finding's numbers JSON as 'key=value, ...' (the text as it is when it is no JSON object)."""
    try:
        values = json.loads(text)
    except (TypeError, ValueError):
        return text_of(text)
    if not isinstance(values, dict):
        return text_of(text)
    return ", ".join(f"{k}={v}" for k, v in values.items())


def _number(value, shown) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool) or not isinstance(value, Real):
        return text_of(value)
    return shown(value)


def text_of(value) -> str:
    """A value from an input as plain text: ``-`` for none, a BLOB as its hex digits."""
    if value is None:
        return "-"
    if isinstance(value, bytes):
        return value.hex()
    return str(value)


def locator(row: dict) -> str:
    """Where an evidence row points: table, row and the ids that open it."""
    parts = [f"{text_of(row['table_name'])} row {text_of(row['source_row'])}"]
    if row.get("slice_id") is not None:
        parts.append(f"slice {text_of(row['slice_id'])}")
    if row.get("kernel_id") is not None:
        parts.append(f"kernel {text_of(row['kernel_id'])}")
    return ", ".join(parts)
