"""Framing: a stream of trace JSON -> lists of decoded events, and the other top-level keys.

The text is read in chunks, each cut at the last event boundary and decoded by msgspec (see
the package docstring for why a successful decode proves a correct cut). Bounded: at most
``MAX_EVENT_BYTES`` (:mod:`warehouse.limits`) are buffered without an event boundary, so a
gigabyte of whitespace between two events fails at the cap instead of growing the buffer.
"""

from __future__ import annotations

import re
from typing import BinaryIO

import msgspec

from warehouse import limits
from warehouse.errors import IngestError
from warehouse.sources.trace_json.events import ANY, EVENTS, Event

#: largest top-level text allowed before traceEvents / after it
MAX_META_BYTES = 256 << 20
WS = b" \t\r\n"
MALFORMED_AT = re.compile(r"\(byte (\d+)\)")
EVENT_AT = re.compile(r"`\$\[(\d+)\]")
TRACE_EVENTS = re.compile(rb'"traceEvents"\s*:\s*\[')


class Framing:
    """Cuts a stream of trace JSON into lists of decoded events; keeps the other top-level keys."""

    def __init__(self, stream: BinaryIO, label: str, chunk_bytes: int, max_event_bytes: int | None = None):
        self.stream = stream
        #: the most bytes buffered without an event boundary (0: no cap)
        self.max_event_bytes = limits.current().MAX_EVENT_BYTES if max_event_bytes is None else max_event_bytes
        self.label = label
        self.chunk_bytes = chunk_bytes
        self.meta: dict = {}
        self.shape = "array"
        self.truncated = False
        self.buf = b""
        self.base = 0  # offset in the (decompressed) input of buf[0]
        self.eof = False
        self.first_index = 0  # index in the array of the next event to decode
        self.done = False
        self.gap_start = 0  # offset of the first byte not yet decoded into an event

    def _error(self, where: str, reason: str) -> IngestError:
        return IngestError(f"{self.label}: {where}: {reason}")

    def _read(self) -> bool:
        if self.eof:
            return False
        chunk = self.stream.read(self.chunk_bytes)
        if not chunk:
            self.eof = True
            return False
        self.buf += chunk
        return True

    def _open(self) -> None:
        """Position ``buf`` just after the ``[`` that opens the event array."""
        while self._read() and not self.buf.lstrip(b"\xef\xbb\xbf" + WS):
            self._consume(len(self.buf))  # leading whitespace only, so far: dropped, never buffered
            self._check_gap("before the first event")
        start = len(self.buf) - len(self.buf.lstrip(b"\xef\xbb\xbf" + WS))
        first = self.buf[start:start + 1]
        if first == b"[":
            self._consume(start + 1)
            return
        if first != b"{":
            raise self._error(f"byte {self.base + start}", "not a JSON array or object of trace events")
        self.shape = "object"
        search = start
        while True:
            at = self.buf.find(b'"traceEvents"', search)
            if at < 0:
                if len(self.buf) > MAX_META_BYTES or not self._read():
                    raise self._error(f"byte {self.base + len(self.buf)}", "no top-level traceEvents array")
                continue
            opening = TRACE_EVENTS.match(self.buf, at)
            if not opening and not self.eof and len(self.buf) - at < 4096:
                self._read()  # the '[' may be in the next chunk
                continue
            try:
                head = ANY.decode(self.buf[start:at] + b'"traceEvents":[]}')
            except msgspec.DecodeError:
                head = None  # "traceEvents" inside a string or a nested object: look further
            if head is not None and opening:
                head.pop("traceEvents")
                self.meta.update(head)
                self._consume(opening.end())
                return
            if head is not None:
                raise self._error(f"byte {self.base + at}", "traceEvents is not an array")
            search = at + 1

    def _check_gap(self, where: str = "after the last event") -> None:
        """:raises IngestError: when more than ``max_event_bytes`` have passed without an event boundary."""
        if self.max_event_bytes and self.base + len(self.buf) - self.gap_start > self.max_event_bytes:
            raise self._error(
                f"byte {self.gap_start}",
                f"more than {self.max_event_bytes} bytes {where} without the end of an event "
                "(WAREHOUSE_MAX_EVENT_BYTES)")

    def _consume(self, n: int) -> None:
        self.buf = self.buf[n:]
        self.base += n

    def batches(self):
        """Yield lists of events in file order; ``first_index`` is the index after each list's last."""
        self._open()
        self.gap_start = self.base
        while not self.done:
            if not self.eof and len(self.buf) < self.chunk_bytes:
                self._read()
                continue
            events = self._final() if self.eof else self._middle()
            if events is None:
                self._check_gap()
                self._read()
            else:
                self.gap_start = self.base
                if events:
                    yield events

    def _middle(self) -> list[Event] | None:
        """Decode the whole events in buf; None when buf holds no complete event boundary yet."""
        end = len(self.buf)
        while True:
            cut = _last_boundary(self.buf, end)
            if cut < 0:
                return None
            data = b"[" + self.buf[:cut] + b"]"
            events, error, at = self._decode(data)
            if error is not None:
                if at is not None and "trailing characters" in str(error):
                    return self._array_end(data, at)
                if at is None or at >= len(data) - 1:
                    end = cut - 1  # the cut fell inside a string or a nested object: back off
                    continue
                raise self._error(f"byte {self.base + at - 1}", _reason(error))
            rest = self.buf[cut:].lstrip(WS)
            self._consume(len(self.buf) - len(rest) + rest.startswith(b","))
            self.first_index += len(events)
            return events

    def _final(self) -> list[Event]:
        """Decode what is left at the end of the input: the last events, ``]`` and, for objects, the rest.

        Lenient where Chrome is: a trailing comma before ``]`` and a missing final ``]`` are accepted.
        """
        self.done = True
        for _attempt in range(2):
            data = b"[" + self.buf
            events, error, at = self._decode(data)
            if error is not None:
                if at is not None and "trailing characters" in str(error):
                    return self._array_end(data, at)
                if at is not None and "trailing comma" in str(error):
                    comma = self.buf.rindex(b",", 0, at - 1)
                    self.buf = self.buf[:comma] + b" " + self.buf[comma + 1:]
                    continue
                if at is None or at >= len(data.rstrip(WS)):
                    return self._truncated(data)
                raise self._error(f"byte {self.base + at - 1}", _reason(error))
            self.truncated = self.shape == "object"  # the object's closing brace is missing
            self.first_index += len(events)
            return events
        raise self._error(f"byte {self.base + len(self.buf)}", "malformed end of the event array")

    def _truncated(self, data: bytes) -> list[Event]:
        """The input ends after a whole event but before the ``]`` that closes the array."""
        events, error, _ = self._decode(data.rstrip(WS).rstrip(b",") + b"]")
        if error is not None:
            raise self._error(f"byte {self.base + len(self.buf)}", "the input ends inside an event (truncated)")
        self.truncated = True
        self.first_index += len(events)
        return events

    def _array_end(self, data: bytes, at: int) -> list[Event]:
        """The array closed inside ``data``; msgspec reported the trailing characters at byte ``at``.

        That byte is just after the first character that follows the array. Decode the array and
        read the rest of the input as the object's other top-level keys.
        """
        self.done = True
        at -= 1
        events, error, error_at = self._decode(data[:at])
        if error is not None:
            raise self._error(f"byte {self.base + (error_at or 1) - 1}", _reason(error))
        suffix_start = at - 1
        while not self.eof and len(self.buf) - suffix_start <= MAX_META_BYTES:
            self._read()
        self._suffix(self.buf[suffix_start:], self.base + suffix_start)
        self.first_index += len(events)
        return events

    def _suffix(self, text: bytes, offset: int) -> None:
        if self.shape == "array":
            if text.strip(WS):
                raise self._error(f"byte {offset}", "unexpected data after the event array")
            return
        try:
            tail = ANY.decode(b'{"traceEvents":0' + text)
        except msgspec.DecodeError as exc:
            at = _error_byte(exc)
            where = f"byte {offset + at - 16}" if at is not None else f"byte {offset + len(text)}"
            raise self._error(where, _reason(exc)) from None
        tail.pop("traceEvents")
        self.meta.update(tail)

    def _decode(self, data: bytes) -> tuple[list[Event] | None, msgspec.DecodeError | None, int | None]:
        """(events, None, None), or (None, the error, its byte in ``data``) when ``data`` is not JSON.

        :raises IngestError: when it is JSON but an event has a field of the wrong type.
        """
        try:
            return EVENTS.decode(data), None, None
        except msgspec.ValidationError as exc:
            raise self._invalid(exc) from None
        except msgspec.DecodeError as exc:
            if "UTF-8" in str(exc):  # msgspec 0.23 and later say so without the byte
                self._name_bad_utf8(data)
            return None, exc, _error_byte(exc)
        except UnicodeDecodeError:  # earlier msgspec
            self._name_bad_utf8(data)
            raise

    def _name_bad_utf8(self, data: bytes) -> None:
        """:raises IngestError: naming the first byte of ``data`` (``[`` and the buffer) that is not UTF-8."""
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise self._error(f"byte {self.base + exc.start - 1}", "text is not UTF-8") from None

    def _invalid(self, exc: msgspec.ValidationError) -> IngestError:
        found = EVENT_AT.search(str(exc))
        where = f"event {self.first_index + int(found[1])}" if found else f"byte {self.base}"
        return self._error(where, f"wrong type: {exc}")


def _last_boundary(buf: bytes, end: int) -> int:
    """Position just after the last ``}`` in ``buf[:end]`` followed by ``,`` and ``{`` (whitespace aside); -1 if none."""
    brace = buf.rfind(b"{", 0, end)
    while brace > 0:
        k = brace - 1
        while k >= 0 and buf[k] in WS:
            k -= 1
        if k > 0 and buf[k] == 0x2C:
            k -= 1
            while k >= 0 and buf[k] in WS:
                k -= 1
            if k >= 0 and buf[k] == 0x7D:
                return k + 1
        brace = buf.rfind(b"{", 0, brace)
    return -1


def _error_byte(exc: Exception) -> int | None:
    found = MALFORMED_AT.search(str(exc))
    return int(found[1]) if found else None


def _reason(exc: Exception) -> str:
    return MALFORMED_AT.sub("", str(exc)).strip()

