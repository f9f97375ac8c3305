"""SQLite's own behaviour as plain Python, for engines that run Python functions (Spark UDFs).

Standard library only: Spark ships these functions to its Python workers by value, so an
executor needs a Python, not this package.
"""

from __future__ import annotations


def sqlite_real_text(value: float | None) -> str | None:
    """A real as SQLite's ``CAST(value AS TEXT)`` writes it: 15 significant digits, always a
    point (``3.0``, ``1.0e+20``), ``Inf``/``-Inf``, NULL for NaN. The Spark engine's UDF."""
    if value is None or value != value:
        return None
    if value in (float("inf"), float("-inf")):
        return "Inf" if value > 0 else "-Inf"
    text = f"{value + 0.0:.15g}"  # + 0.0: -0.0 is 0.0
    mantissa, e, exponent = text.partition("e")
    if "." not in mantissa:
        mantissa += ".0"
    return mantissa + e + exponent
