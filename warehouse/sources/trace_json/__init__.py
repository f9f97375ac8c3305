"""Chrome trace-event JSON: torch_npu's trace_view.json, PyTorch (kineto) traces, the op simulator's trace.

Three shapes are read (reference/FORMATS.md): a bare array of events; an object whose
``traceEvents`` array sits among other top-level keys (kineto: ``schemaVersion``,
``deviceProperties``, ``distributedInfo``); the op simulator's object with ``profilingType``.
A ``.gz`` file is read transparently. The other top-level keys go to ``run_metadata`` (JSON
text). The source's rank is kineto's ``distributedInfo.rank``, else the one its folders name
(torch_npu: ``rank{N}_ascend_pt``, the ``profiler_info_{N}.json`` beside its output folder), else
-1 (:data:`~warehouse.sources.kit.rank_layout.UNKNOWN_RANK`); the op simulator's trace (an
operator's run, about no rank) has none (NULL). Its processes, counters and metadata rows carry
the same rank. Lenient where Chrome is: a trailing comma before the final ``]``, and a missing
final ``]`` (``source.detail`` says ``truncated``).

Streaming: the text is read in chunks, each cut at the last event boundary (``}`` ``,`` ``{``
outside any string) and decoded by msgspec into GC-free structs, ``args`` kept as raw JSON
bytes. A cut that falls inside a string or a nested object can never decode (msgspec reports
the error at the appended ``]``), so a successful decode is a correct split; a failed one backs
off to an earlier boundary. Rows go to SQLite 500 per INSERT statement
(:mod:`warehouse.sources.kit.multirow`), one batch per chunk, in the parsing thread: a writer thread was
measured to cost CPU and gain nothing, because sqlite3 takes the GIL back after every
statement it steps (bench/RESULTS.md). Memory
depends on the chunk size and the deepest nesting, not on the file size (flow events wait
in a table on disk until every slice is in; they are bound and paired inside SQLite).

What each event becomes:

- ``X`` (and ``B``/``E`` pairs, matched per thread as a stack) -> ``slice``; ``i``/``I`` ->
  ``slice`` with ``dur`` 0. Times are exact integer ns: ``"1736408883688177.930"`` is split at
  the point, an integer is multiplied by 1000, a float is ``round(x * 1000)``.
- ``depth``/``parent_id``: computed in the parse pass while a thread's slices arrive in
  (ts asc, dur desc) order; a thread that ever arrives out of order is recomputed afterwards
  from the (thread_id, ts, dur DESC) index. A slice that overlaps its would-be parent without
  fitting inside it is not nested under it (``parent_id`` always encloses the child).
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
- torch_npu's host calls (trace_view.json's processes named ``CANN`` and ``Python``) also go to
  ``cann_api`` and ``pytorch_api`` as a rank db's CANN_API and PYTORCH_API do, each pointing at
  its slice (host_api.sql): the host rules answer alike for both exports.
- ``b``/``n``/``e`` (async) -> slices on a thread of their own per (pid, cat, id), whose
  ``tid`` is ``"async:<cat>:<id>"`` and whose name is the name of the first event seen on it;
  ``b``/``e`` nest as a stack, ``n`` is an instant.
- ``B`` or ``b`` never ended and ``E`` or ``e`` with nothing open are dropped and counted in
  ``source.detail``; so are events of other phases.

:func:`ingest_trace_bytes` reads a trace held in memory (the trace block of an operator
profile) with the same code.

Modules, one job each: :mod:`.framing` (bytes -> lists of decoded events), :mod:`.events`
(the event struct, exact times, flow keys), :mod:`.loader` (events -> rows: processes,
threads, slices with their nesting, counters, metadata), :mod:`.flows` (the staging table of
flow events and their pairing into ``flow`` rows once every slice is in).
"""

from __future__ import annotations

import io
import sqlite3
from pathlib import Path

from warehouse.errors import IngestError
from warehouse.sources.base import Outcome, open_binary, read_head
from warehouse.sources.kit.rank_layout import rank_or_unknown
from warehouse.sources.trace_json.framing import WS
from warehouse.sources.trace_json.loader import Loader

__all__ = ["KIND", "IngestError", "detect", "ingest", "ingest_trace_bytes", "looks_like_trace"]

KIND = "trace_json"

#: bytes read (decompressed) per step; one chunk of events is decoded and written at a time
CHUNK_BYTES = 8 << 20
#: bytes of the head looked at by detect (kineto writes deviceProperties before traceEvents)
DETECT_BYTES = 64 << 10


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
        loader = Loader(conn, source_id, str(path), rank_id=None, default_rank=rank_or_unknown(path).rank)
        meta = loader.run(stream, CHUNK_BYTES)
    return loader.outcome(meta)


def ingest_trace_bytes(conn: sqlite3.Connection, payload: bytes, source_id: int, *,
                       rank_id: int | None = None, label: str = "trace") -> int:
    """Read a trace held in memory (e.g. block 0x02 of visualize_data.bin); returns the rows added.

    :param rank_id: the trace's rank; None: the one the trace names, else none (an operator's).
    :param label: names the input in error messages (``"<label>: byte 123: ..."``).
    :raises IngestError: if the payload is not a trace.
    """
    loader = Loader(conn, source_id, label, rank_id=rank_id)
    loader.run(io.BytesIO(payload.rstrip(b"\0")), CHUNK_BYTES)  # blocks may be NUL-terminated
    return loader.rows
