"""Lenient conversions of the values real writers emit: numbers as strings, "NA", ints or strings as ids."""

from __future__ import annotations

import json

from warehouse.sources.op_profile.framing import BlockError
from warehouse.sources.kit.numbers import INT64_MAX, INT64_MIN
from warehouse.sources.kit.text import gb_per_s_to_bytes_per_s, us_to_ns

#: texts that mean "no value"
MISSING = frozenset({"", "na", "n/a", "nan", "null", "none", "-", "--"})


def to_float(value) -> float | None:
    """A number from a number or numeric text; None for missing or non-numeric values."""
    if value is None:
        return None
    if isinstance(value, (bool, int, float)):
        return float(value)
    if isinstance(value, str):
        text = value.strip().rstrip("%")
        if text.lower() in MISSING:
            return None
        try:
            return float(text)
        except ValueError:
            return None
    return None


def us_as_ns(value) -> int | None:
    """A duration in us (number or text) as integer ns, exactly from the writer's digits; see :func:`_scaled`."""
    return _scaled(us_to_ns, value)


def gb_per_s_as_bytes_per_s(value) -> int | None:
    """A bandwidth in GB/s (GB = 10**9 bytes) as integer bytes/s, exactly; see :func:`_scaled`."""
    return _scaled(gb_per_s_to_bytes_per_s, value)


def _scaled(convert, value) -> int | None:
    """``value`` through one of the kit's exact unit converters (rounded half to even).

    Text keeps every digit the writer wrote; a JSON number arrives as a float and is read
    from its shortest repr: the written digits when there were at most 15 significant ones,
    or when the writer printed the shortest repr itself (300.0660095214844 in the real files).
    None where :func:`to_float` gives none (missing, not a number) and for values that are
    not finite or do not fit a 64-bit integer once converted.
    """
    if to_float(value) is None:
        return None
    try:
        return convert(value)
    except ValueError:  # "5%", booleans, nan/inf, past 64 bits: the REAL column keeps what there is
        return None


def to_int(value) -> int | float | None:
    """An integer from an int, an integral float or text; a non-integral number, or one
    beyond SQLite's signed 64-bit range, stays a float."""
    if type(value) is int:  # the common case first: a JSON integer
        return _fit(value)
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, str):
        text = value.strip()
        try:
            return _fit(int(text, 16) if text.lower().startswith("0x") else int(text))
        except ValueError:
            pass
    number = to_float(value)
    if number is None or number != number or number in (float("inf"), float("-inf")):
        return None
    return _fit(int(number)) if number.is_integer() else number


def _fit(number: int) -> int | float:
    return number if INT64_MIN <= number <= INT64_MAX else float(number)


def ident(value):
    """An id given as an int or a numeric string (block_id, core_no): the int, None when missing, else the text."""
    number = to_int(value)
    if isinstance(number, int):
        return number
    text = to_text(value)
    return None if text is None or text.strip().lower() in MISSING else text


def to_text(value) -> str | None:
    """Text as given; other scalars as their text; lists and objects as JSON."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def scalar(value):
    """A value SQLite can hold as given: scalars unchanged, lists and objects as JSON text."""
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False)
    return value


def flag(value) -> int | None:
    """1/0 from a bool, a number or 'true'/'false'."""
    if isinstance(value, str):
        lowered = value.strip().lower()
        if lowered in ("true", "yes"):
            return 1
        if lowered in ("false", "no"):
            return 0
    number = to_float(value)
    return None if number is None else int(number != 0)


def objects(value, what: str) -> list[dict]:
    """A list of JSON objects (None counts as empty).

    :raises BlockError: naming ``what`` when it is not a list of objects.
    """
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise BlockError(f"{what}: expected a list of objects, got {type(value).__name__}")
    return value


def mapping(value, what: str) -> dict:
    """A JSON object (None counts as empty).

    :raises BlockError: naming ``what`` when it is something else.
    """
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise BlockError(f"{what}: expected an object, got {type(value).__name__}")
    return value
