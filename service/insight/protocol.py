"""The seed-000 envelope's ``params``: typed getters, and the error a command answers with.

A command's mistake (unknown card, missing or badly typed parameter) is not an HTTP error
in this protocol: the answer is ``result: false`` with a ``message`` (and, for an ambiguous
card, the list of cards) in its body. :class:`InsightError` carries that body.
"""

from __future__ import annotations

import math

from service.insight.session import Session
from warehouse import queries

#: integers are SQLite's: signed 64-bit
INT64 = 1 << 63


class InsightError(Exception):
    """A command that cannot answer: ``result: false``, body ``{"message", **extra}``."""

    def __init__(self, message: str, **extra):
        super().__init__(message)
        self.body = {"message": message, **extra}


class Params:
    """The ``params`` object of a request, read with the types the protocol gives them, and the
    session of the client that sent it (:class:`~service.insight.session.Session`: its current
    operator profile and baseline; a new one when the transport keeps none).

    Ids travel as strings ("3") or numbers; times as integers (ns); ``timePerPx`` as a float.
    """

    def __init__(self, values: dict, session: Session | None = None):
        self.values = values
        self.session = session if session is not None else Session()

    def _get(self, name: str, required: bool, aliases: tuple[str, ...] = (), types: tuple = (), what: str = ""):
        """(the name the value was given under, the value or None); ``aliases`` are other names for
        the parameter, ``types`` the JSON types it may have (a bool never passes)."""
        given = next((n for n in (name, *aliases) if self.values.get(n) not in (None, "")), None)
        if given is None:
            if required:
                raise InsightError(f"missing parameter {name}")
            return name, None
        value = self.values[given]
        if types and (isinstance(value, bool) or not isinstance(value, types)):
            raise InsightError(f"parameter {given}: {value!r} is not {what}")
        return given, value

    def integer(self, name: str, *, required: bool = True, aliases: tuple[str, ...] = ()) -> int | None:
        """An integer given as a number or a decimal string."""
        name, value = self._get(name, required, aliases, (int, float, str), "an integer")
        if value is None:
            return None
        try:
            number = float(value) if isinstance(value, float) else int(str(value).strip())
        except ValueError:
            number = None
        if number is None or (isinstance(number, float) and not number.is_integer()):
            raise InsightError(f"parameter {name}: {value!r} is not an integer")
        if not -INT64 <= number < INT64:
            raise InsightError(f"parameter {name}: {value!r} is out of the 64-bit range")
        return int(number)

    def positive(self, name: str) -> float:
        """A finite number above 0 (``timePerPx``)."""
        name, value = self._get(name, True, (), (int, float, str), "a number")
        try:
            number = float(value)
        except ValueError:
            raise InsightError(f"parameter {name}: {value!r} is not a number") from None
        if not math.isfinite(number) or number <= 0:
            raise InsightError(f"parameter {name}: {value!r} is not a number above 0")
        return number

    def flag(self, name: str) -> bool:
        """A boolean given as true/false, 1/0 or their text; False when not given."""
        value = self.values.get(name, False)
        if isinstance(value, str) and value.lower() in ("true", "false", "1", "0", ""):
            value = value.lower() in ("true", "1")
        elif isinstance(value, int) and not isinstance(value, bool) and value in (0, 1):
            value = bool(value)
        if not isinstance(value, bool):
            raise InsightError(f"parameter {name}: {value!r} is not a boolean")
        return value

    def text(self, name: str, *, required: bool = True, aliases: tuple[str, ...] = ()) -> str | None:
        """A string (an integer is taken as its text)."""
        _, value = self._get(name, required, aliases, (str, int), "a string")
        return None if value is None else str(value)

    def text_list(self, name: str) -> list[str]:
        """A non-empty list of strings (one string is a list of one)."""
        _, value = self._get(name, True)
        value = [value] if isinstance(value, str) else value
        if not isinstance(value, list) or not value or not all(isinstance(v, str) and v for v in value):
            raise InsightError(f"parameter {name}: expected a list of paths, got {value!r}")
        return value


def rows(conn, name: str, **params) -> list[dict]:
    """A named query's rows as dicts (the protocol layer holds no SQL of its own)."""
    columns, result = queries.get(name).run(conn, params)
    return [dict(zip(columns, row)) for row in result]


def count(conn, name: str, **params) -> int:
    """How many rows a named query gives, counted in SQL."""
    return queries.get(name).count(conn, params)


def one(conn, name: str, **params) -> dict | None:
    """The first row of a named query, or None."""
    found = rows(conn, name, **params)
    return found[0] if found else None


def cpp_text(value: float) -> str:
    """A number as the real server's std::to_string writes a double: six decimals."""
    return f"{value:.6f}"


def reserved(value: float, digits: int) -> float:
    """NumberUtil::DoubleReservedNDigits: ``value`` to ``digits`` decimals, half away from zero."""
    scale = 10 ** digits
    return math.copysign(math.floor(abs(value) * scale + 0.5) / scale, value)
