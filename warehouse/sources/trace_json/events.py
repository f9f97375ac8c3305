"""The trace event as decoded (a GC-free msgspec struct), exact times in ns, flow keys."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

import msgspec

from warehouse.errors import IngestError

#: the longest timestamp text read (a 64-bit count of ns in us with 3 decimals is ~25 characters)
MAX_NUMBER_CHARS = 40
#: |us| past this would be more ns than a 64-bit integer holds
MAX_US = 9_223_372_036_854_775


class Event(msgspec.Struct, gc=False):
    """One trace event; fields a reader does not use are not decoded."""

    ph: str = ""
    name: str | None = None
    cat: str | None = None
    pid: int | str | None = None
    tid: int | str | None = None
    ts: int | float | str | None = None
    dur: int | float | str | None = None
    id: int | str | None = None
    id2: dict[str, int | str] | None = None
    bp: str | None = None
    cname: str | None = None
    args: msgspec.Raw = msgspec.Raw(b"")


EVENTS = msgspec.json.Decoder(list[Event])
ANY = msgspec.json.Decoder()


def to_ns(value, label: str, index: int, field: str) -> int:
    """Microseconds (int, float or decimal string) -> integer ns, exactly for ints and strings."""
    kind = type(value)
    if kind is str:
        if len(value) > MAX_NUMBER_CHARS:
            raise IngestError(f"{label}: event {index}: {field} {value[:20]!r}... is {len(value)} characters long, "
                              "not a timestamp")
        if len(value) > 4 and value[-4] == "." and value[:-4].isdigit() and value[-3:].isdigit():
            return int(value[:-4] + value[-3:])
        try:
            number = Decimal(value)
        except (InvalidOperation, ValueError):
            raise IngestError(f"{label}: event {index}: {field} {value!r} is not a number") from None
        # checked before scaling: "1e999000" would otherwise become a million-digit integer
        if not number.is_finite() or abs(number) > MAX_US:
            raise IngestError(f"{label}: event {index}: {field} {value!r} is out of range (not a finite us "
                              "timestamp within 64-bit ns)")
        return int((number * 1000).to_integral_value())
    if kind is int:
        if abs(value) > MAX_US:
            raise IngestError(f"{label}: event {index}: {field} {value!r} is out of range (past 64-bit ns)")
        return value * 1000
    if kind is float:
        if value != value or value in (float("inf"), float("-inf")) or abs(value) > MAX_US:
            raise IngestError(f"{label}: event {index}: {field} {value!r} is not a finite number within 64-bit ns")
        return round(value * 1000)
    raise IngestError(f"{label}: event {index}: {field} is missing")


def flow_key(event: Event) -> str | None:
    """The flow (or async) id as text: ``id``, ``id2.global``, or ``<pid>:<id2.local>``."""
    if event.id is not None:
        return str(event.id)
    if event.id2:
        if "global" in event.id2:
            return str(event.id2["global"])
        if "local" in event.id2:
            return f"{event.pid}:{event.id2['local']}"
    return None
