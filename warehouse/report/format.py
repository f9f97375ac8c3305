"""Number formatting shared by the report's renderers."""

from __future__ import annotations

import json


def ms(ns: int | float | None) -> str:
    """Nanoseconds as milliseconds with 3 decimals ('-' for none)."""
    return "-" if ns is None else f"{ns / 1e6:,.3f}"


def us(ns: int | float | None) -> str:
    """Nanoseconds as microseconds with 1 decimal ('-' for none)."""
    return "-" if ns is None else f"{ns / 1e3:,.1f}"


def pct(ratio: float | None) -> str:
    """A 0-1 ratio as a percentage."""
    return "-" if ratio is None else f"{100 * ratio:.1f}%"


def gib(size: int | None) -> str:
    """Bytes as GiB with 2 decimals."""
    return "-" if size is None else f"{size / 2**30:,.2f} GiB"


def numbers(text: str) -> str:
    """A finding's numbers JSON as 'key=value, ...'."""
    return ", ".join(f"{k}={v}" for k, v in json.loads(text).items())


def locator(row: dict) -> str:
    """Where an evidence row points: table, row and the ids that open it."""
    parts = [f"{row['table_name']} row {row['source_row']}"]
    if row.get("slice_id") is not None:
        parts.append(f"slice {row['slice_id']}")
    if row.get("kernel_id") is not None:
        parts.append(f"kernel {row['kernel_id']}")
    return ", ".join(parts)
