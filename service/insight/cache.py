"""What the timeline commands keep in memory per warehouse: threads' level-of-detail arrays,
interned strings, busy summaries of padded viewports, and each source's time zero (shared by the
inputs that answer one rank's timeline together); and the Operator page's groups of a rank (its
pies and table ask them at once, each page of them again).

Arrays per thread held in memory answer a window 100x faster than fetching its rows from
SQLite (reference/STACK.md §4). A cache belongs to one warehouse file and one state of it:
when the file or its WAL changes (an ingest, an import/action) the next request starts
afresh. Threads are evicted least recently used once the slices held pass a budget.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from pathlib import Path

from service.insight import ranks
from service.insight.lod import ThreadLod
from service.insight.protocol import one
from warehouse import queries

#: most slices held in thread arrays per warehouse by default (about 81 bytes each, levels
#: included); the app's INSIGHT_CACHE_SLICES (env WAREHOUSE_INSIGHT_CACHE_SLICES) overrides it
MAX_SLICES = 10_000_000
#: busy summaries kept per warehouse
MAX_SUMMARIES = 256

_LOCK = threading.Lock()
_CACHES: dict[str, WarehouseCache] = {}


def _state(path: str) -> tuple:
    """What changes when the warehouse does: size and mtime of the file and of its WAL."""
    state = []
    for name in (path, path + "-wal"):
        try:
            stat = os.stat(name)
            state.append((stat.st_size, stat.st_mtime_ns))
        except OSError:
            state.append(None)
    return tuple(state)


class WarehouseCache:
    """The caches of one warehouse state."""

    def __init__(self, state: tuple, max_slices: int = MAX_SLICES):
        self.state = state
        self.max_slices = max_slices
        self.threads: OrderedDict[int, ThreadLod] = OrderedDict()
        self.slices = 0
        self.strings: dict[int, str] = {0: ""}
        self.summaries: OrderedDict[tuple, tuple] = OrderedDict()
        self.starts: dict[int, int] = {}
        #: source id -> the inputs answering its rank's timeline with it (None: not read yet)
        self.groups: dict[int, tuple[int, ...]] | None = None
        self.lock = threading.Lock()

    def thread(self, conn, thread_id: int) -> ThreadLod:
        """The thread's arrays and levels, read with the named query ``insight_thread_slices`` and
        built on first use (outside the lock: requests on threads already held never wait)."""
        with self.lock:
            lod = self.threads.get(thread_id)
            if lod is not None:
                self.threads.move_to_end(thread_id)
                return lod
        _, found = queries.get("insight_thread_slices").run(conn, {"thread_id": thread_id})
        lod = ThreadLod.from_rows(found).build_levels()
        with self.lock:
            if thread_id not in self.threads:
                self.threads[thread_id] = lod
                self.slices += len(lod)
                while self.slices > self.max_slices and len(self.threads) > 1:
                    _, evicted = self.threads.popitem(last=False)
                    self.slices -= len(evicted)
            return self.threads[thread_id]

    def string(self, conn, string_id: int) -> str:
        """The text of an interned string ('' for 0, none)."""
        text = self.strings.get(string_id)
        if text is None:
            row = one(conn, "insight_string", string_id=string_id)
            text = self.strings[string_id] = row["value"] if row else ""
        return text

    def start(self, conn, source_id: int) -> int:
        """Time zero of a source's timeline: the earliest slice start or drawn counter sample (named query
        ``insight_source_start``) of the inputs that answer its rank's timeline together (:mod:`service.insight.ranks`: msprof writes one rank in several files, shown
        as one card on one time axis), or of the source alone when it answers alone or not at all; 0
        when they have neither."""
        with self.lock:
            found = self.starts.get(source_id)
        if found is None:
            firsts = [one(conn, "insight_source_start", source_id=member)["start_ns"]
                      for member in self._timeline_group(conn, source_id)]
            firsts = [first for first in firsts if first is not None]
            found = min(firsts) if firsts else 0
            with self.lock:
                self.starts[source_id] = found
        return found

    def _timeline_group(self, conn, source_id: int) -> tuple[int, ...]:
        with self.lock:
            groups = self.groups
        if groups is None:
            groups = {member: card.timeline_ids for card in ranks.listing(conn) for member in card.timeline_ids}
            with self.lock:
                self.groups = groups
        return groups.get(source_id, (source_id,))

    def summary(self, key: tuple, compute):
        """A summary by key (a busy summary, a rank's operator groups), computed by ``compute()`` when
        not held."""
        with self.lock:
            found = self.summaries.get(key)
            if found is not None:
                self.summaries.move_to_end(key)
                return found
        found = compute()
        with self.lock:
            self.summaries[key] = found
            while len(self.summaries) > MAX_SUMMARIES:
                self.summaries.popitem(last=False)
        return found


def for_warehouse(path: str | Path, max_slices: int = MAX_SLICES) -> WarehouseCache:
    """The cache of the warehouse at ``path`` in its current state (holding up to ``max_slices``)."""
    path = str(path)
    state = _state(path)
    with _LOCK:
        cache = _CACHES.get(path)
        if cache is None or cache.state != state:
            cache = _CACHES[path] = WarehouseCache(state, max_slices)
        return cache


def forget(path: str | Path) -> None:
    """Drop the caches of a warehouse (after writing to it)."""
    with _LOCK:
        _CACHES.pop(str(path), None)
