"""Loading: decoded events -> rows (processes, threads, slices with their nesting, counters, metadata).

Bounded (:mod:`warehouse.limits`): a name, category or cname longer than ``MAX_STRING_BYTES`` and more
than ``MAX_OPEN_EVENTS`` ``B``/``b`` events open at once fail the file, naming the event.
"""

from __future__ import annotations

import gc
import json
import sqlite3
from collections import Counter
from operator import attrgetter, itemgetter
from pathlib import Path
from typing import BinaryIO

import msgspec

from warehouse import limits, sqlfiles
from warehouse.sources.kit import multirow
from warehouse.errors import IngestError
from warehouse.sources.kit.interning import StringTable
from warehouse.model import derived, nesting
from warehouse.sources.base import Outcome
from warehouse.sources.kit.rank_layout import UNKNOWN_RANK
from warehouse.sources.trace_json import flows
from warehouse.sources.trace_json.events import ANY, Event, flow_key, to_ns
from warehouse.sources.trace_json.framing import Framing

#: the phase of an event (counted per batch, in C)
PHASE = attrgetter("ph")
#: the name id of a slice row (counted per batch, in C, for the name search's name_use)
NAME_ID = itemgetter(4)


class _Thread:
    """A timeline thread while it is being read: nesting stack (and order check), longest slice."""

    __slots__ = ("id", "stack", "in_order", "max_dur", "open", "name", "sort_index")

    def __init__(self, thread_id: int, name: str | None = None):
        self.id = thread_id
        self.stack = nesting.Stack()
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

    def __init__(self, conn: sqlite3.Connection, longest: int = 0):
        super().__init__({None: None})
        self.table = StringTable(conn)
        self.longest = longest
        #: ids of the 'ProfilerStep#N' names met: the slices that mark training steps
        self.step_names: list[int] = []

    def __missing__(self, value: str) -> int:
        if self.longest and len(value) * 4 > self.longest and len(value.encode("utf-8")) > self.longest:
            raise ValueError(f"a name, category or cname of {len(value.encode('utf-8'))} bytes, over the limit of "
                             f"{self.longest} (WAREHOUSE_MAX_STRING_BYTES)")
        found = self[value] = self.table.id(value)
        if value.startswith(STEP_PREFIX):
            self.step_names.append(found)
        return found


STEP_PREFIX = "ProfilerStep#"
STEPS_SQL = sqlfiles.text(Path(__file__).parent / "steps.sql")
HOST_API_SQL = Path(__file__).parent / "host_api.sql"
SLICE_INSERT = ("INSERT INTO _slice (id, thread_id, ts, dur, name_id, category_id, depth, parent_id, args, "
                "source_id, source_row) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULLIF(NULLIF(CAST(? AS TEXT), '{}'), ''), ?, ?)")
#: an event's "cname" is rare (torch_npu writes none): set after the batch's insert for the few slices
#: with one, rather than bound as one more (NULL) parameter of every slice row (~2 % of the ingest's CPU)
CNAME_UPDATE = "UPDATE _slice SET cname_id = ? WHERE id = ?"
COUNTER_INSERT = "INSERT INTO _counter (track_id, ts, value, source_id) VALUES (?, ?, ?, ?)"
PROCESS_INSERT = "INSERT INTO process (id, source_id, rank_id, pid) VALUES (?, ?, ?, ?)"
THREAD_INSERT = "INSERT INTO thread (id, process_id, source_id, tid) VALUES (?, ?, ?, ?)"
TRACK_INSERT = "INSERT INTO counter_track (id, source_id, rank_id, process_id, name) VALUES (?, ?, ?, ?, ?)"


class Loader:
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
        self.first_slice = self.next_slice
        self.counts: Counter[str] = Counter()  # events per phase
        self.slice_names: Counter[int | None] = Counter()  # slices per name id
        self.rows = 0
        self.dropped = {"unmatched_end": 0, "unended_begin": 0}
        self.ignored: dict[str, int] = {}
        self.truncated = False
        self.shape = "array"
        self.renested = 0  # threads whose nesting was recomputed after the parse (out of order, B/E, async)
        self.bounds = limits.current()
        self.open_events = 0  # B/b events waiting for their E/e, all threads together
        self.cnames: list[tuple[int, int]] = []  # (cname_id, slice id) of the batch's slices with a cname

    # -- driving ---------------------------------------------------------------------------

    def run(self, stream: BinaryIO, chunk_bytes: int) -> dict:
        """Read every event of ``stream``, ``chunk_bytes`` at a time; returns the trace's other top-level keys.

        All or nothing inside the caller's transaction (a savepoint): a caller that goes on
        after an IngestError (an operator profile with a bad trace block) keeps none of the
        trace's rows and no staging table.
        """
        self.conn.execute("SAVEPOINT trace_json")
        try:
            meta = self._run(stream, chunk_bytes)
        except BaseException as exc:
            self.conn.execute("ROLLBACK TO trace_json")
            self.conn.execute("RELEASE trace_json")
            if isinstance(exc, RecursionError):  # msgspec on args nested thousands deep
                raise IngestError(f"{self.label}: JSON nested too deeply to read") from None
            if isinstance(exc, OverflowError):  # sqlite3 on insert: checked once there, not per event
                raise IngestError(f"{self.label}: a timestamp or number is past 64-bit integers") from None
            raise
        self.conn.execute("RELEASE trace_json")
        return meta

    def _run(self, stream: BinaryIO, chunk_bytes: int) -> dict:
        flows.create_staging(self.conn)
        framing = Framing(stream, self.label, chunk_bytes, self.bounds.MAX_EVENT_BYTES)
        self.string_ids = _StringIds(self.conn, self.bounds.MAX_STRING_BYTES)
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
        if self.rank_id is None:
            self.rank_id = _rank(meta, self.default_rank)
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
        cnames = self.cnames = []
        flow_phases = flows.PHASES
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
                    ts = int(ts.replace(".", "", 1)) if type(ts) is str and ts[-4:-3] == "." else to_ns(ts, label, index, "ts")
                    if ph == "X":
                        dur = event.dur
                        dur = round(dur * 1000) if type(dur) is float else to_ns(dur, label, index, "dur")
                        if dur < 0:
                            raise IngestError(f"{label}: event {index}: negative dur {event.dur!r}")
                    else:
                        dur = 0
                    # nesting, while the thread arrives in nesting order (else afterwards)
                    placed = thread.stack.place(next_id, ts, dur) if thread.in_order else None
                    if placed is None:
                        thread.in_order = False
                        depth, parent = 0, None
                    else:
                        depth, parent = placed
                    if dur > thread.max_dur:
                        thread.max_dur = dur
                    slices.append((next_id, thread.id, ts, dur, ids[event.name], ids[event.cat], depth, parent,
                                   event.args, source_id, index))
                    if event.cname is not None:
                        cnames.append((ids[event.cname], next_id))
                    next_id += 1
                elif ph == "C":
                    self._counter(event, index, counters)
                elif ph in flow_phases:  # inline: a third of a torch_npu trace
                    thread = thread_keys.get((event.pid, event.tid)) or self._thread(event.pid, event.tid)
                    key = event.id
                    key = str(key) if key is not None else flow_key(event)
                    if key is None:
                        self.ignored["flow without id"] = self.ignored.get("flow without id", 0) + 1
                    else:
                        ts = event.ts
                        ts = int(ts.replace(".", "", 1)) if type(ts) is str and ts[-4:-3] == "." else to_ns(ts, label, index, "ts")
                        flow_events.append((event.cat or "", key, flow_phases[ph], thread.id, ts,
                                            0 if ph == "f" and event.bp != "e" else 1, event.name, index))
                elif ph == "B" or ph == "b":
                    self._begin(event, index)
                elif ph == "E" or ph == "e":
                    next_id = self._end(event, index, slices, next_id)
                elif ph == "n":
                    thread = self._async_thread(event)
                    thread.in_order = False
                    slices.append(self._slice_row(next_id, thread, event, index, to_ns(event.ts, label, index, "ts"), 0))
                    next_id += 1
                elif ph == "M":
                    self._metadata(event, index)
                else:
                    self.ignored[ph] = self.ignored.get(ph, 0) + 1
        except (ValueError, TypeError, OverflowError) as exc:  # e.g. a ts string that is not a number
            raise IngestError(f"{label}: event {index}: {exc}") from None
        self.counts.update(map(PHASE, events))
        self.slice_names.update(map(NAME_ID, slices))
        self.next_slice = next_id
        self.rows += len(slices) + len(counters)
        multirow.insert_rows(self.conn, SLICE_INSERT, slices)
        self._put(CNAME_UPDATE, cnames)
        multirow.insert_rows(self.conn, COUNTER_INSERT, counters)
        multirow.insert_rows(self.conn, flows.EVENT_INSERT, flow_events)

    def _slice_row(self, slice_id: int, thread: _Thread, event: Event, index: int, ts: int, dur: int,
                   args=None) -> tuple:
        """A slice row placed by the post-pass (B/E, async): depth and parent filled in later."""
        if event.cname is not None:
            self.cnames.append((self.string_ids[event.cname], slice_id))
        if dur > thread.max_dur:
            thread.max_dur = dur
        return (slice_id, thread.id, ts, dur, self.string_ids[event.name], self.string_ids[event.cat], 0, None,
                event.args if args is None else args, self.source_id, index)

    def _async_thread(self, event: Event) -> _Thread:
        key = flow_key(event)
        return self._thread(event.pid, None, tid_text=f"async:{event.cat or ''}:{key}", name=event.name)

    def _begin(self, event: Event, index: int) -> None:
        thread = self._async_thread(event) if event.ph == "b" else (
            self.thread_keys.get((event.pid, event.tid)) or self._thread(event.pid, event.tid))
        cap = self.bounds.MAX_OPEN_EVENTS
        if cap and self.open_events >= cap:
            raise IngestError(f"{self.label}: event {index}: more than {cap} B events open (begun, not ended) at once "
                              "(WAREHOUSE_MAX_OPEN_EVENTS)")
        thread.open.append((event, index, to_ns(event.ts, self.label, index, "ts")))
        self.open_events += 1

    def _end(self, event: Event, index: int, slices: list, next_id: int) -> int:
        thread = self._async_thread(event) if event.ph == "e" else (
            self.thread_keys.get((event.pid, event.tid)) or self._thread(event.pid, event.tid))
        ts = to_ns(event.ts, self.label, index, "ts")
        if not thread.open:
            self.dropped["unmatched_end"] += 1
            return next_id
        begin, begin_index, begin_ts = thread.open.pop()
        self.open_events -= 1
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
        ts = int(ts.replace(".", "", 1)) if type(ts) is str and ts[-4:-3] == "." else to_ns(ts, self.label, index, "ts")
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
        """Nest the threads that arrived out of order, bind the flows, the steps, the host API calls
        (host_api.sql), record the top-level keys."""
        conn = self.conn
        for thread in self.threads.values():
            if not thread.in_order:
                nesting.nest_thread(conn, thread.id, placed=True)
                self.renested += 1
        self.rows += flows.insert_flows(conn, self.source_id)
        derived.note_slice_names(conn, self.source_id, self.slice_names)
        if self.rank_id is not None:
            conn.execute("UPDATE process SET rank_id = ? WHERE source_id = ? AND rank_id IS NULL",
                         (self.rank_id, self.source_id))
            conn.execute("UPDATE counter_track SET rank_id = ? WHERE source_id = ? AND rank_id IS NULL",
                         (self.rank_id, self.source_id))
        rank_id = UNKNOWN_RANK if self.rank_id is None else self.rank_id
        if self.string_ids.step_names:
            self.rows += conn.execute(STEPS_SQL, {
                "rank_id": rank_id, "source_id": self.source_id,
                "first_id": self.first_slice, "name_ids": json.dumps(self.string_ids.step_names)}).rowcount
        if {"CANN", "Python"} & {process.name for process in self.processes.values()}:
            for statement in sqlfiles.statements(HOST_API_SQL):
                self.rows += conn.execute(statement, {
                    "rank_id": rank_id, "source_id": self.source_id, "first_id": self.first_slice}).rowcount
        rows = [(self.source_id, self.rank_id, name, json.dumps(value)) for name, value in meta.items()]
        conn.executemany("INSERT INTO run_metadata (source_id, rank_id, name, value) VALUES (?, ?, ?, ?)", rows)
        self.rows += len(rows)


def _rank(meta: dict, default: int | None) -> int | None:
    """The trace's rank: kineto's ``distributedInfo.rank``; none for the op simulator's trace
    (``profilingType``: an operator's run, about no rank); else ``default``."""
    info = meta.get("distributedInfo")
    rank = info.get("rank") if isinstance(info, dict) else None
    if isinstance(rank, int) and not isinstance(rank, bool):
        return rank
    return None if "profilingType" in meta else default


def _text(value) -> str | None:
    return None if value is None else str(value)


def _integer(value) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None
