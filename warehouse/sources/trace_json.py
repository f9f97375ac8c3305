"""Chrome trace-event JSON: torch_npu's trace_view.json, PyTorch (kineto) traces, the op simulator's trace.

Three shapes are read (reference/FORMATS.md): a bare array of events; an object whose
``traceEvents`` array sits among other top-level keys (kineto: ``schemaVersion``,
``deviceProperties``, ``distributedInfo``); the op simulator's object with ``profilingType``.
A ``.gz`` file is read transparently. The other top-level keys go to ``run_metadata`` (JSON
text). The source's rank is kineto's ``distributedInfo.rank``, else the ``{rank}`` of the
``profiler_info_{rank}.json`` torch_npu writes beside its output folder. Lenient where Chrome
is: a trailing comma before the final ``]``, and a missing final ``]`` (``source.detail``
says ``truncated``).

Streaming: the text is read in chunks, each cut at the last event boundary (``}`` ``,`` ``{``
outside any string) and decoded by msgspec into GC-free structs, ``args`` kept as raw JSON
bytes. A cut that falls inside a string or a nested object can never decode (msgspec reports
the error at the appended ``]``), so a successful decode is a correct split; a failed one backs
off to an earlier boundary. Rows go to SQLite through ``executemany``, one batch per chunk,
in the parsing thread: a writer thread was measured to cost CPU and gain nothing, because
sqlite3's executemany takes the GIL back after every row (bench/RESULTS.md). Memory
depends on the chunk size and the deepest nesting, not on the file size (flow events wait
in a table on disk until every slice is in).

What each event becomes:

- ``X`` (and ``B``/``E`` pairs, matched per thread as a stack) -> ``slice``; ``i``/``I`` ->
  ``slice`` with ``dur`` 0. Times are exact integer ns: ``"1736408883688177.930"`` is split at
  the point, an integer is multiplied by 1000, a float is ``round(x * 1000)``.
- ``depth``/``parent_id``: computed in the parse pass while a thread's slices arrive in
  (ts asc, dur desc) order; a thread that ever arrives out of order is recomputed afterwards
  from the (thread_id, ts, dur) index. A slice that overlaps its would-be parent without fitting
  inside it is not nested under it (``parent_id`` always encloses the child).
- ``M`` -> ``process``/``thread`` names, labels and sort order.
- ``C`` -> one ``counter_track`` per (process, event name, arg key), named
  ``"<event name>.<key>"`` (``"<event name> <id>.<key>"`` when the event has an ``id``); every
  numeric arg is a sample. Non-numeric args are skipped.
- ``s``/``t``/``f`` -> ``flow``. Flows are keyed by (cat, id) (``id2.global``, or ``id2.local``
  scoped by pid); in ts order, an ``s`` starts a chain and every later ``t``/``f`` of the chain
  gets an arrow from the chain's latest ``s``/``t`` (so one ``s`` may fan out to several
  ``f``). ``s``/``t`` and ``f`` with ``bp: "e"`` bind to the deepest slice enclosing their
  ts on their thread; any other ``f`` binds to the next slice starting at or after its ts.
  Events that bind to no slice, or ``t``/``f`` with no ``s`` before them, make no arrow.
- ``b``/``n``/``e`` (async) -> slices on a thread of their own per (pid, cat, id), whose
  ``tid`` is ``"async:<cat>:<id>"`` and whose name is the name of the first event seen on it;
  ``b``/``e`` nest as a stack, ``n`` is an instant.
- ``B`` or ``b`` never ended and ``E`` or ``e`` with nothing open are dropped and counted in
  ``source.detail``; so are events of other phases.

:func:`ingest_trace_bytes` reads a trace held in memory (the trace block of an operator
profile) with the same code.
"""

from __future__ import annotations

import gc
import io
import json
import re
import sqlite3
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import BinaryIO

import msgspec

from warehouse.errors import IngestError
from warehouse.interning import StringTable
from warehouse.sources.base import Outcome, open_binary, read_head

KIND = "trace_json"

#: bytes read (decompressed) per step; one chunk of events is decoded and written at a time
CHUNK_BYTES = 8 << 20
#: bytes of the head looked at by detect (kineto writes deviceProperties before traceEvents)
DETECT_BYTES = 64 << 10
#: largest top-level text allowed before traceEvents / after it
MAX_META_BYTES = 256 << 20

SQL_DIR = Path(__file__).with_suffix("")
WS = b" \t\r\n"
MALFORMED_AT = re.compile(r"\(byte (\d+)\)")
EVENT_AT = re.compile(r"`\$\[(\d+)\]")
TRACE_EVENTS = re.compile(rb'"traceEvents"\s*:\s*\[')
PROFILER_INFO = re.compile(r"^profiler_info_(\d+)\.json$")


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
    args: msgspec.Raw = msgspec.Raw(b"")


EVENTS = msgspec.json.Decoder(list[Event])
ANY = msgspec.json.Decoder()


def detect(path) -> bool:
    """A JSON array whose first event has ``ph``, or an object with a ``traceEvents`` key."""
    try:
        return looks_like_trace(read_head(path, DETECT_BYTES))
    except Exception:  # noqa: BLE001 - detect never raises
        return False


def looks_like_trace(head: bytes) -> bool:
    """The head of a trace: an array of objects with ``"ph"``, or an object with ``"traceEvents"``."""
    text = head.lstrip(b"\xef\xbb\xbf" + WS)
    if text.startswith(b"["):
        first = text[1:].lstrip(WS)
        return first.startswith(b"{") and b'"ph"' in first[:4096]
    return text.startswith(b"{") and b'"traceEvents"' in text


def ingest(conn: sqlite3.Connection, path, source_id: int) -> Outcome:
    """Read one trace file into the warehouse (inside the caller's transaction)."""
    path = Path(path)
    with open_binary(path) as stream:
        loader = _Loader(conn, source_id, str(path), rank_id=None, default_rank=rank_beside(path))
        meta = loader.run(stream)
    return loader.outcome(meta)


def rank_beside(path: Path) -> int | None:
    """The rank of a torch_npu output folder: ``profiler_info_{rank}.json`` beside the trace or one level up."""
    for folder in (path.parent, path.parent.parent):
        found = [int(m[1]) for m in (PROFILER_INFO.match(p.name) for p in folder.glob("profiler_info_*.json")) if m]
        if len(found) == 1:
            return found[0]
    return None


def ingest_trace_bytes(conn: sqlite3.Connection, payload: bytes, source_id: int, *,
                       rank_id: int | None = None, label: str = "trace") -> int:
    """Read a trace held in memory (e.g. block 0x02 of visualize_data.bin); returns the rows added.

    :param label: names the input in error messages (``"<label>: byte 123: ..."``).
    :raises IngestError: if the payload is not a trace.
    """
    loader = _Loader(conn, source_id, label, rank_id=rank_id)
    loader.run(io.BytesIO(payload.rstrip(b"\0")))  # blocks may be NUL-terminated
    return loader.rows


# ---------------------------------------------------------------------------------------------
# framing: bytes -> lists of events


class _Framing:
    """Cuts a stream of trace JSON into lists of decoded events; keeps the other top-level keys."""

    def __init__(self, stream: BinaryIO, label: str, chunk_bytes: int):
        self.stream = stream
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
            pass  # leading whitespace only, so far
        start = len(self.buf) - len(self.buf.lstrip(b"\xef\xbb\xbf" + WS))
        first = self.buf[start:start + 1]
        if first == b"[":
            self._consume(start + 1)
            return
        if first != b"{":
            raise self._error(f"byte {start}", "not a JSON array or object of trace events")
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

    def _consume(self, n: int) -> None:
        self.buf = self.buf[n:]
        self.base += n

    def batches(self):
        """Yield lists of events in file order; ``first_index`` is the index after each list's last."""
        self._open()
        while not self.done:
            if not self.eof and len(self.buf) < self.chunk_bytes:
                self._read()
                continue
            events = self._final() if self.eof else self._middle()
            if events is None:
                self._read()
            elif events:
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
            return None, exc, _error_byte(exc)
        except UnicodeDecodeError:  # a string that is not UTF-8: name its first bad byte
            try:
                data.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise self._error(f"byte {self.base + exc.start - 1}", "text is not UTF-8") from None
            raise

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


# ---------------------------------------------------------------------------------------------
# times


def _ns(value, label: str, index: int, field: str) -> int:
    """Microseconds (int, float or decimal string) -> integer ns, exactly for ints and strings."""
    kind = type(value)
    if kind is str:
        if len(value) > 4 and value[-4] == "." and value[:-4].isdigit() and value[-3:].isdigit():
            return int(value[:-4] + value[-3:])
        try:
            return int((Decimal(value) * 1000).to_integral_value())
        except (InvalidOperation, ValueError):
            raise IngestError(f"{label}: event {index}: {field} {value!r} is not a number") from None
    if kind is int:
        return value * 1000
    if kind is float:
        if value != value or value in (float("inf"), float("-inf")):
            raise IngestError(f"{label}: event {index}: {field} {value!r} is not a finite number")
        return round(value * 1000)
    raise IngestError(f"{label}: event {index}: {field} is missing")


# ---------------------------------------------------------------------------------------------
# loading: events -> rows


class _Thread:
    """A timeline thread while it is being read: nesting stack, order check, longest slice."""

    __slots__ = ("id", "ends", "ids", "last_ts", "last_dur", "in_order", "max_dur", "open", "name", "sort_index")

    def __init__(self, thread_id: int, name: str | None = None):
        self.id = thread_id
        self.ends: list[int] = []  # end times of the open enclosing slices, outermost first
        self.ids: list[int] = []  # their slice ids
        self.last_ts = -(1 << 62)
        self.last_dur = 0
        self.in_order = True
        self.max_dur = 0
        self.open: list = []  # B (or b) events waiting for their E (or e)
        self.name = name
        self.sort_index = None


class _Series:
    """One counter (a C event's name and id in a process): its tracks, one per arg key."""

    __slots__ = ("process_id", "name", "tracks")

    def __init__(self, process_id: int, name: str):
        self.process_id = process_id
        self.name = name
        self.tracks: dict[str, int] = {}  # arg key -> counter_track.id


class _Process:
    """A timeline process while it is being read: its row id and metadata (M events)."""

    __slots__ = ("id", "name", "labels", "sort_index")

    def __init__(self, process_id: int):
        self.id = process_id
        self.name = None
        self.labels = None
        self.sort_index = None


class _StringIds(dict):
    """text -> string.id, interning on a miss (None -> None)."""

    def __init__(self, conn: sqlite3.Connection):
        super().__init__({None: None})
        self.table = StringTable(conn)

    def __missing__(self, value: str) -> int:
        found = self[value] = self.table.id(value)
        return found


SLICE_INSERT = ("INSERT INTO _slice (id, thread_id, ts, dur, name_id, category_id, depth, parent_id, args, "
                "source_id, source_row) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULLIF(NULLIF(CAST(? AS TEXT), '{}'), ''), ?, ?)")
COUNTER_INSERT = "INSERT INTO _counter (track_id, ts, value, source_id) VALUES (?, ?, ?, ?)"
FLOW_EVENT_INSERT = ("INSERT INTO _trace_flow_event (category, flow_key, phase, thread_id, ts, enclosing, name, "
                     "source_row) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
PROCESS_INSERT = "INSERT INTO process (id, source_id, rank_id, pid) VALUES (?, ?, ?, ?)"
THREAD_INSERT = "INSERT INTO thread (id, process_id, source_id, tid) VALUES (?, ?, ?, ?)"
TRACK_INSERT = "INSERT INTO counter_track (id, source_id, rank_id, process_id, name) VALUES (?, ?, ?, ?, ?)"
FLOW_PHASES = {"s": 0, "t": 1, "f": 2}


class _Loader:
    """Turns decoded events into rows: the state of one trace being ingested."""

    def __init__(self, conn: sqlite3.Connection, source_id: int, label: str, *, rank_id: int | None,
                 default_rank: int | None = None):
        self.conn = conn
        self.source_id = source_id
        self.label = label
        self.rank_id = rank_id
        self.default_rank = default_rank
        self.processes: dict[str, _Process] = {}
        self.process_keys: dict = {}
        self.threads: dict[tuple[str, str], _Thread] = {}
        self.thread_keys: dict = {}
        self.series: dict[tuple, _Series] = {}  # (pid, name, id) as the event writes them
        self.series_by_name: dict[tuple[int, str], _Series] = {}  # (process.id, series name)
        self.next_slice, self.next_thread, self.next_process, self.next_track = (
            conn.execute(f"SELECT coalesce(max(id), 0) + 1 FROM {table}").fetchone()[0]
            for table in ("_slice", "thread", "process", "counter_track")
        )
        self.counts: dict[str, int] = {}
        self.rows = 0
        self.dropped = {"unmatched_end": 0, "unended_begin": 0}
        self.ignored: dict[str, int] = {}
        self.truncated = False
        self.shape = "array"
        self.renested = 0  # threads whose nesting was recomputed after the parse (out of order, B/E, async)

    # -- driving ---------------------------------------------------------------------------

    def run(self, stream: BinaryIO) -> dict:
        """Read every event of ``stream``; returns the trace's other top-level keys.

        All or nothing inside the caller's transaction (a savepoint): a caller that goes on
        after an IngestError (an operator profile with a bad trace block) keeps none of the
        trace's rows and no staging table.
        """
        self.conn.execute("SAVEPOINT trace_json")
        try:
            meta = self._run(stream)
        except BaseException:
            self.conn.execute("ROLLBACK TO trace_json")
            self.conn.execute("RELEASE trace_json")
            raise
        self.conn.execute("RELEASE trace_json")
        return meta

    def _run(self, stream: BinaryIO) -> dict:
        self.conn.execute((SQL_DIR / "flow_event_table.sql").read_text(encoding="utf-8"))
        self.conn.execute("DELETE FROM _trace_flow_event")
        framing = _Framing(stream, self.label, CHUNK_BYTES)
        self.string_ids = _StringIds(self.conn)
        gc_was_enabled = gc.isenabled()
        gc.disable()  # millions of short-lived objects, no cycles: the collector only costs time
        try:
            for events in framing.batches():
                self._load(events, framing.first_index - len(events))
            self._close_open_slices()
            self._flush_threads()
        finally:
            if gc_was_enabled:
                gc.enable()
        self.truncated, self.shape = framing.truncated, framing.shape
        meta = framing.meta
        rank = meta.get("distributedInfo", {}).get("rank") if isinstance(meta.get("distributedInfo"), dict) else None
        if self.rank_id is None:
            self.rank_id = rank if isinstance(rank, int) and not isinstance(rank, bool) else self.default_rank
        self._finish(meta)
        return meta

    def outcome(self, meta: dict) -> Outcome:
        detail = {"shape": "object" if self.shape == "object" else "array",
                  "events": sum(self.counts.values()), "phases": self.counts,
                  "top_level_keys": sorted(meta)}
        if self.truncated:
            detail["truncated"] = True
        detail.update({key: value for key, value in self.dropped.items() if value})
        if self.ignored:
            detail["ignored_phases"] = self.ignored
        if self.renested:
            detail["renested_threads"] = self.renested
        if "profilingType" in meta:
            detail["profiling_type"] = meta["profilingType"]
        return Outcome(rows=self.rows, rank_id=self.rank_id, detail=detail)

    # -- the parse pass -------------------------------------------------------------------

    def _put(self, sql: str, rows: list) -> None:
        if rows:
            self.conn.executemany(sql, rows)

    def _process(self, pid) -> _Process:
        text = "" if pid is None else str(pid)
        process = self.processes.get(text)
        if process is None:
            process = self.processes[text] = _Process(self.next_process)
            self.next_process += 1
            self._put(PROCESS_INSERT, [(process.id, self.source_id, self.rank_id, text)])
        self.process_keys[pid] = process
        return process

    def _thread(self, pid, tid, *, tid_text: str | None = None, name: str | None = None) -> _Thread:
        process = self.process_keys.get(pid) or self._process(pid)
        text = tid_text if tid_text is not None else ("" if tid is None else str(tid))
        key = ("" if pid is None else str(pid), text)
        thread = self.threads.get(key)
        if thread is None:
            thread = self.threads[key] = _Thread(self.next_thread, name)
            self.next_thread += 1
            self._put(THREAD_INSERT, [(thread.id, process.id, self.source_id, text)])
        if tid_text is None:
            self.thread_keys[(pid, tid)] = thread
        return thread

    def _load(self, events: list[Event], first: int) -> None:
        """One batch of events -> rows in the warehouse."""
        slices, counters, flow_events = [], [], []
        counts = self.counts
        thread_keys = self.thread_keys
        ids = self.string_ids
        source_id = self.source_id
        label = self.label
        next_id = self.next_slice
        index = first
        try:
            for index, event in enumerate(events, first):
                ph = event.ph
                if ph == "X" or ph == "i" or ph == "I":
                    thread = thread_keys.get((event.pid, event.tid)) or self._thread(event.pid, event.tid)
                    ts = event.ts
                    ts = int(ts[:-4] + ts[-3:]) if type(ts) is str and ts[-4:-3] == "." else _ns(ts, label, index, "ts")
                    if ph == "X":
                        dur = event.dur
                        dur = round(dur * 1000) if type(dur) is float else _ns(dur, label, index, "dur")
                        if dur < 0:
                            raise IngestError(f"{label}: event {index}: negative dur {event.dur!r}")
                    else:
                        dur = 0
                    # nesting, while the thread arrives in (ts asc, dur desc) order
                    if ts > thread.last_ts or (ts == thread.last_ts and dur <= thread.last_dur):
                        ends = thread.ends
                        end = ts + dur
                        while ends and (ends[-1] <= ts or ends[-1] < end):
                            ends.pop()
                            thread.ids.pop()
                        depth = len(ends)
                        parent = thread.ids[-1] if depth else None
                        ends.append(end)
                        thread.ids.append(next_id)
                        thread.last_ts = ts
                        thread.last_dur = dur
                    else:
                        thread.in_order = False
                        depth, parent = 0, None
                    if dur > thread.max_dur:
                        thread.max_dur = dur
                    slices.append((next_id, thread.id, ts, dur, ids[event.name], ids[event.cat], depth, parent,
                                   event.args, source_id, index))
                    next_id += 1
                elif ph == "C":
                    self._counter(event, index, counters)
                elif ph in FLOW_PHASES:  # inline: a third of a torch_npu trace
                    thread = thread_keys.get((event.pid, event.tid)) or self._thread(event.pid, event.tid)
                    key = event.id
                    key = str(key) if key is not None else _flow_key(event)
                    if key is None:
                        self.ignored["flow without id"] = self.ignored.get("flow without id", 0) + 1
                    else:
                        ts = event.ts
                        ts = int(ts[:-4] + ts[-3:]) if type(ts) is str and ts[-4:-3] == "." else _ns(ts, label, index, "ts")
                        flow_events.append((event.cat or "", key, FLOW_PHASES[ph], thread.id, ts,
                                            0 if ph == "f" and event.bp != "e" else 1, event.name, index))
                elif ph == "B" or ph == "b":
                    self._begin(event, index)
                elif ph == "E" or ph == "e":
                    next_id = self._end(event, index, slices, next_id)
                elif ph == "n":
                    thread = self._async_thread(event)
                    thread.in_order = False
                    slices.append(self._slice_row(next_id, thread, event, index, _ns(event.ts, label, index, "ts"), 0))
                    next_id += 1
                elif ph == "M":
                    self._metadata(event, index)
                else:
                    self.ignored[ph] = self.ignored.get(ph, 0) + 1
                counts[ph] = counts.get(ph, 0) + 1
        except (ValueError, TypeError, OverflowError) as exc:  # e.g. a ts string that is not a number
            raise IngestError(f"{label}: event {index}: {exc}") from None
        self.next_slice = next_id
        self.rows += len(slices) + len(counters)
        self._put(SLICE_INSERT, slices)
        self._put(COUNTER_INSERT, counters)
        self._put(FLOW_EVENT_INSERT, flow_events)

    def _slice_row(self, slice_id: int, thread: _Thread, event: Event, index: int, ts: int, dur: int,
                   args=None) -> tuple:
        """A slice row placed by the post-pass (B/E, async): depth and parent filled in later."""
        if dur > thread.max_dur:
            thread.max_dur = dur
        return (slice_id, thread.id, ts, dur, self.string_ids[event.name], self.string_ids[event.cat], 0, None,
                event.args if args is None else args, self.source_id, index)

    def _async_thread(self, event: Event) -> _Thread:
        key = _flow_key(event)
        return self._thread(event.pid, None, tid_text=f"async:{event.cat or ''}:{key}", name=event.name)

    def _begin(self, event: Event, index: int) -> None:
        thread = self._async_thread(event) if event.ph == "b" else (
            self.thread_keys.get((event.pid, event.tid)) or self._thread(event.pid, event.tid))
        thread.open.append((event, index, _ns(event.ts, self.label, index, "ts")))

    def _end(self, event: Event, index: int, slices: list, next_id: int) -> int:
        thread = self._async_thread(event) if event.ph == "e" else (
            self.thread_keys.get((event.pid, event.tid)) or self._thread(event.pid, event.tid))
        ts = _ns(event.ts, self.label, index, "ts")
        if not thread.open:
            self.dropped["unmatched_end"] += 1
            return next_id
        begin, begin_index, begin_ts = thread.open.pop()
        args = begin.args
        if len(event.args) > 2:  # E's args are merged into B's (Chrome does the same)
            merged = ANY.decode(begin.args) if len(begin.args) else {}
            merged.update(ANY.decode(event.args))
            args = msgspec.json.encode(merged)
        thread.in_order = False
        slices.append(self._slice_row(next_id, thread, begin, begin_index, begin_ts, max(0, ts - begin_ts), args))
        return next_id + 1

    def _close_open_slices(self) -> None:
        for thread in self.threads.values():
            self.dropped["unended_begin"] += len(thread.open)
            thread.open.clear()

    def _counter(self, event: Event, index: int, counters: list) -> None:
        """A C event: one sample per numeric arg (almost half of a torch_npu trace: kept lean)."""
        if not len(event.args):
            return
        try:
            values = ANY.decode(event.args)
        except msgspec.DecodeError:
            values = None
        if not isinstance(values, dict):
            raise IngestError(f"{self.label}: event {index}: counter args is not an object")
        ts = event.ts
        ts = int(ts[:-4] + ts[-3:]) if type(ts) is str and ts[-4:-3] == "." else _ns(ts, self.label, index, "ts")
        series = self.series.get((event.pid, event.name, event.id)) or self._series(event)
        tracks = series.tracks
        source_id = self.source_id
        for key, value in values.items():
            kind = type(value)
            if kind is float or kind is int:
                track = tracks.get(key)
                if track is None:
                    track = self._track(series, key)
                counters.append((track, ts, value, source_id))

    def _series(self, event: Event) -> _Series:
        """The counter of a C event: per process (by pid text), name and id."""
        process = self.process_keys.get(event.pid) or self._process(event.pid)
        name = event.name or ""
        if event.id is not None:
            name = f"{name} {event.id}"
        series = self.series_by_name.get((process.id, name))
        if series is None:
            series = self.series_by_name[(process.id, name)] = _Series(process.id, name)
        self.series[(event.pid, event.name, event.id)] = series
        return series

    def _track(self, series: _Series, key: str) -> int:
        """A new counter_track: one arg of one counter."""
        track = series.tracks[key] = self.next_track
        self.next_track += 1
        self.rows += 1
        self._put(TRACK_INSERT, [(track, self.source_id, self.rank_id, series.process_id, f"{series.name}.{key}")])
        return track

    def _metadata(self, event: Event, index: int) -> None:
        name = event.name
        if name not in ("process_name", "process_labels", "process_sort_index", "thread_name", "thread_sort_index"):
            self.ignored[f"M {name}"] = self.ignored.get(f"M {name}", 0) + 1
            return
        try:
            args = ANY.decode(event.args) if len(event.args) else {}
        except msgspec.DecodeError:
            args = None
        if not isinstance(args, dict):
            raise IngestError(f"{self.label}: event {index}: metadata args is not an object")
        if name.startswith("process_"):
            process = self.process_keys.get(event.pid) or self._process(event.pid)
            if name == "process_name":
                process.name = _text(args.get("name"))
            elif name == "process_labels":
                process.labels = _text(args.get("labels"))
            else:
                process.sort_index = _integer(args.get("sort_index"))
        else:
            thread = self.thread_keys.get((event.pid, event.tid)) or self._thread(event.pid, event.tid)
            if name == "thread_name":
                thread.name = _text(args.get("name"))
            else:
                thread.sort_index = _integer(args.get("sort_index"))

    # -- after the parse ------------------------------------------------------------------

    def _flush_threads(self) -> None:
        """Names, sort order and max_dur of the processes and threads seen."""
        self._put("UPDATE process SET name = ?, labels = ?, sort_index = ? WHERE id = ?",
                        [(p.name, p.labels, p.sort_index, p.id) for p in self.processes.values()])
        self._put("UPDATE thread SET name = ?, sort_index = ?, max_dur = ? WHERE id = ?",
                        [(t.name, t.sort_index, t.max_dur, t.id) for t in self.threads.values()])
        self.rows += len(self.processes) + len(self.threads)

    def _finish(self, meta: dict) -> None:
        """Nest the threads that arrived out of order, bind the flows, record the top-level keys."""
        conn = self.conn
        for thread in self.threads.values():
            if not thread.in_order:
                _renest(conn, thread.id)
                self.renested += 1
        self.rows += _insert_flows(conn, self.source_id)
        conn.execute("DROP TABLE _trace_flow_event")
        if self.rank_id is not None:
            conn.execute("INSERT OR IGNORE INTO rank (rank_id, source_id) VALUES (?, ?)", (self.rank_id, self.source_id))
            conn.execute("UPDATE process SET rank_id = ? WHERE source_id = ? AND rank_id IS NULL",
                         (self.rank_id, self.source_id))
            conn.execute("UPDATE counter_track SET rank_id = ? WHERE source_id = ? AND rank_id IS NULL",
                         (self.rank_id, self.source_id))
        rows = [(self.source_id, self.rank_id, name, json.dumps(value)) for name, value in meta.items()]
        conn.executemany("INSERT INTO run_metadata (source_id, rank_id, name, value) VALUES (?, ?, ?, ?)", rows)
        self.rows += len(rows)


def _renest(conn: sqlite3.Connection, thread_id: int) -> None:
    """Recompute depth and parent_id of one thread's slices in (ts, dur desc) order."""
    ends: list[int] = []
    ids: list[int] = []
    updates = []
    rows = conn.execute("SELECT id, ts, dur FROM _slice WHERE thread_id = ? ORDER BY ts, dur DESC, id", (thread_id,))
    for slice_id, ts, dur in rows:
        end = ts + dur
        while ends and (ends[-1] <= ts or ends[-1] < end):
            ends.pop()
            ids.pop()
        updates.append((len(ends), ids[-1] if ids else None, slice_id))
        ends.append(end)
        ids.append(slice_id)
        if len(updates) >= 65536:
            conn.executemany("UPDATE _slice SET depth = ?, parent_id = ? WHERE id = ?", updates)
            updates = []
    conn.executemany("UPDATE _slice SET depth = ?, parent_id = ? WHERE id = ?", updates)


def _insert_flows(conn: sqlite3.Connection, source_id: int) -> int:
    """Pair the flow events of the trace just read into arrows; returns the number of flows.

    flow_events.sql binds every event to a slice and sorts them by (category, flow_key, ts).
    Per key, an ``s`` starts a chain; every later ``t``/``f`` gets an arrow from the chain's
    latest ``s``/``t``; events before the first ``s`` or bound to no slice make no arrow.
    """
    flows = []
    total = 0
    key = None
    started = False  # an s of this key was seen
    source = source_name = None  # the slice (and name) of the chain's latest s or t
    for category, flow_key, phase, name, slice_id in conn.execute(
            (SQL_DIR / "flow_events.sql").read_text(encoding="utf-8")):
        if (category, flow_key) != key:
            key, started, source, source_name = (category, flow_key), False, None, None
        if phase == 0:
            started, source, source_name = True, slice_id, name
            continue
        if not started:
            continue
        if source is not None and slice_id is not None:
            flows.append((source_id, source, slice_id, source_name or name, category or None, flow_key))
        if phase == 1:
            source, source_name = slice_id, name
        if len(flows) >= 65536:
            total += _write_flows(conn, flows)
            flows = []
    return total + _write_flows(conn, flows)


def _write_flows(conn: sqlite3.Connection, flows: list) -> int:
    conn.executemany("INSERT INTO flow (source_id, slice_out, slice_in, name, category, flow_key) "
                     "VALUES (?, ?, ?, ?, ?, ?)", flows)
    return len(flows)


def _flow_key(event: Event) -> str | None:
    """The flow (or async) id as text: ``id``, ``id2.global``, or ``<pid>:<id2.local>``."""
    if event.id is not None:
        return str(event.id)
    if event.id2:
        if "global" in event.id2:
            return str(event.id2["global"])
        if "local" in event.id2:
            return f"{event.pid}:{event.id2['local']}"
    return None


def _text(value) -> str | None:
    return None if value is None else str(value)


def _integer(value) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None
