"""64-bit integers: the bound every integer a source reads from an input goes through.

SQLite's INTEGER is a signed 64-bit number. A larger Python int fails the insert that binds it
(OverflowError), and one returned from an SQL function fails the statement ("string or blob too
big", with a traceback on stderr when callback tracebacks are on, as Datasette turns them on), so
every source bounds its integers before they reach SQLite and fails the input with a reason that
names the file and the field instead. Kept apart from :mod:`~warehouse.sources.kit.text` so that
:mod:`~warehouse.sources.kit.rank_layout`, which that module imports, can use it too.
"""

from __future__ import annotations

#: The range of an SQLite INTEGER, and its number of decimal digits.
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
INT64_DIGITS = 19


def int64(number: int, value) -> int:
    """``number`` when SQLite can store it as an INTEGER.

    :raises ValueError: naming the cell ``value`` otherwise.
    """
    if not INT64_MIN <= number <= INT64_MAX:
        raise ValueError(f"number out of range: {value!r}")
    return number


def whole(digits: str) -> int:
    """The integer of a decimal text (digits, an optional ``-``) when SQLite can store it as an INTEGER.

    The length is checked first, so a step key of a million digits costs nothing.

    :raises ValueError: naming the text when it is past 64-bit integers.
    """
    if len(digits.lstrip("-").lstrip("0")) > INT64_DIGITS:
        raise ValueError(f"number out of range: {digits!r}")
    return int64(int(digits), digits)
