"""Level of detail for the timeline: what a screen can show of a thread, and a process's busy time.

Pure numpy over one thread's slices, held as arrays sorted by (depth, ts). An *item* is
either one slice or a run of merged slices, with its start, its end, the slice of the run
with the longest duration (whose name and id it shows) and how many slices it holds.

**The merge rule at ``tpp`` ns per pixel.** At each depth separately, in start order, an
item is *narrow* when it is a merged run or a single slice shorter than ``tpp``. Two
consecutive narrow items at the same depth merge when the later one starts less than
``tpp`` after the latest end seen so far at that depth. Slices at least ``tpp`` long are
never merged, and merging never crosses depths, so depth is preserved. A merged item spans
from its first start to its latest end and carries the id and name of its longest slice
(the first of equals). At each depth the items then alternate between wide ones and gaps of
at least ``tpp``, so a window of P pixels holds at most about 2P items per depth.

The rule composes: merging the items of a finer level at a coarser ``tpp`` gives the same
items as merging the slices directly (from any finer level). :class:`ThreadLod` therefore
keeps levels at power-of-two pixel widths (level k merged at 2**k ns), and a request at
``tpp`` merges the few items of level floor(log2(tpp)) inside its window: its cost follows
the pixels on screen, not the slices in the window. A level is stored only when it holds at
most 3/4 of the items of the finer level stored before it; otherwise that finer level
serves in its place (at most 4/3 as many items, the same answer), which keeps the memory of
all levels to about that of the slices.

**The busy summary** of a process at bucket width ``w`` (a power of two) is the union of
its threads' depth-0 items of level log2(w), where intervals less than ``w`` apart merge.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass

import numpy as np

EMPTY = np.zeros(0, dtype=np.int64)
#: a level is stored when it holds at most this share of the items of the finer level it comes from
KEEP = 0.75


@dataclass(frozen=True)
class Items:
    """Items sorted by (depth, start); ``longest`` indexes the thread's slice arrays."""

    start: np.ndarray
    end: np.ndarray
    depth: np.ndarray
    longest: np.ndarray
    count: np.ndarray

    def __len__(self) -> int:
        return len(self.start)

    def take(self, index) -> Items:
        return Items(self.start[index], self.end[index], self.depth[index], self.longest[index], self.count[index])

    @staticmethod
    def concat(parts: list[Items]) -> Items:
        if not parts:
            return Items(EMPTY, EMPTY, EMPTY, EMPTY, EMPTY)
        return Items(*(np.concatenate([getattr(p, name) for p in parts])
                       for name in ("start", "end", "depth", "longest", "count")))


def merge(items: Items, tpp: float, dur: np.ndarray) -> Items:
    """``items`` (sorted by depth, start) merged at ``tpp`` ns per pixel (module docstring);
    ``dur`` is the thread's slice durations, to pick each run's longest slice."""
    if len(items) == 0:
        return items
    bounds = np.flatnonzero(np.diff(items.depth)) + 1
    edges = [0, *bounds.tolist(), len(items)]
    if len(edges) == 2:
        return _merge_depth(items, tpp, dur)
    return Items.concat([_merge_depth(items.take(slice(a, b)), tpp, dur) for a, b in zip(edges, edges[1:])])


def _merge_depth(items: Items, tpp: float, dur: np.ndarray) -> Items:
    """The merge rule on the items of one depth."""
    narrow = (items.count > 1) | ((items.end - items.start) < tpp)
    latest_end = np.maximum.accumulate(items.end)
    head = np.ones(len(items), dtype=bool)
    head[1:] = ~narrow[1:] | ~narrow[:-1] | (items.start[1:] - latest_end[:-1] >= tpp)
    heads = np.flatnonzero(head)
    if len(heads) == len(items):
        return items
    longest_dur = dur[items.longest]
    best = np.maximum.reduceat(longest_dur, heads)
    group = np.cumsum(head) - 1
    candidates = np.flatnonzero(longest_dur == best[group])
    first = np.ones(len(candidates), dtype=bool)
    first[1:] = group[candidates[1:]] != group[candidates[:-1]]
    return Items(items.start[heads], np.maximum.reduceat(items.end, heads), items.depth[heads],
                 items.longest[candidates[first]], np.add.reduceat(items.count, heads))


class Level:
    """One level's items with, per depth, where its items sit and the widest one (for window searches)."""

    def __init__(self, items: Items, depths: int):
        self.items = items
        self.offsets = np.searchsorted(items.depth, np.arange(depths + 1), side="left")
        widths = items.end - items.start
        self.max_width = [int(widths[a:b].max()) if b > a else 0
                          for a, b in zip(self.offsets[:-1], self.offsets[1:])]

    def window(self, start: int, end: int, depths=None) -> Items:
        """The items overlapping [start, end) (instants at start included), at ``depths`` (all by default)."""
        starts, ends = self.items.start, self.items.end
        picks = []
        for depth in range(len(self.offsets) - 1) if depths is None else depths:
            a, b = int(self.offsets[depth]), int(self.offsets[depth + 1])
            lo = a + int(np.searchsorted(starts[a:b], start - self.max_width[depth], side="left"))
            hi = a + int(np.searchsorted(starts[a:b], end, side="left"))
            if hi > lo:
                index = np.arange(lo, hi)
                picks.append(index[(ends[lo:hi] > start) | (starts[lo:hi] >= start)])
        return self.items.take(np.concatenate(picks) if picks else EMPTY)


class ThreadLod:
    """One thread's slices (arrays sorted by depth, ts) and its power-of-two levels."""

    def __init__(self, ids, ts, dur, depth, name_id, category_id, cname_id):
        self.ids, self.dur, self.name_id, self.category_id, self.cname_id = ids, dur, name_id, category_id, cname_id
        #: the categories on the thread (string ids), found once: np.unique costs ~10 ms a request on 625k slices
        self.categories = tuple(np.unique(category_id).tolist())
        self.depths = int(depth.max()) + 1 if len(depth) else 0
        # every slice counts 1: a broadcast view, no memory
        raw = Items(ts, ts + dur, depth, np.arange(len(ts), dtype=np.int32), np.broadcast_to(np.int64(1), len(ts)))
        self.raw = Level(raw, self.depths)
        self.levels: list[Level] = []
        self._lock = threading.Lock()

    @classmethod
    def from_rows(cls, rows: list[tuple]) -> ThreadLod:
        """From rows (id, ts, dur, depth, name_id, category_id, cname_id) in any order (sorted here
        by depth, ts, longest first, id: numpy sorts faster than SQLite)."""
        table = np.array(rows, dtype=np.int64).reshape(-1, 7)
        order = np.lexsort((table[:, 0], -table[:, 2], table[:, 1], table[:, 3]))
        # ids, times and durations in 64 bits; depths and string ids fit in 32
        return cls(*(np.ascontiguousarray(table[order, i], dtype=np.int64 if i < 3 else np.int32) for i in range(7)))

    def __len__(self) -> int:
        return len(self.ids)

    def level(self, tpp: float) -> Level:
        """The finest level whose pixel width is not above ``tpp`` (the raw slices below 1 ns)."""
        k = int(math.floor(math.log2(tpp))) if tpp >= 1 else -1
        if k < 0:
            return self.raw
        with self._lock:
            while len(self.levels) <= k:
                below = self.levels[-1] if self.levels else self.raw
                merged = merge(below.items, 2 ** len(self.levels), self.dur)
                self.levels.append(below if len(merged) > KEEP * len(below.items) else Level(merged, self.depths))
        return self.levels[k]

    def build_levels(self) -> ThreadLod:
        """Build every level up to the one where each depth is a single run (the coarser ones are
        the same), so that no request waits for one."""
        if len(self):
            self.level(2.0 * max(1, int(self.raw.items.end.max() - self.raw.items.start.min())))
        return self

    def screen(self, start: int, end: int, tpp: float, max_items: int) -> Items:
        """What a screen shows of [start, end) at ``tpp``: merged items, whole depths from the top
        while they fit in ``max_items`` (deeper depths are left out; a top depth alone over the
        bound keeps its first ``max_items`` items)."""
        items = merge(self.level(tpp).window(start, end), tpp, self.dur)
        if len(items) > max_items:
            whole = int(np.searchsorted(items.depth, items.depth[max_items], side="left"))
            items = items.take(slice(0, whole or max_items))
        return items

    def busy(self, start: int, end: int, width: int) -> tuple[np.ndarray, np.ndarray]:
        """Starts and ends of the thread's depth-0 items of the level of ``width`` overlapping [start, end)."""
        if not self.depths:
            return EMPTY, EMPTY
        items = self.level(width).window(start, end, depths=(0,))
        return items.start, items.end


def union(starts: list[np.ndarray], ends: list[np.ndarray], width: int) -> tuple[np.ndarray, np.ndarray]:
    """The union of intervals, merging those less than ``width`` apart: sorted starts and ends."""
    start = np.concatenate(starts) if starts else EMPTY
    end = np.concatenate(ends) if ends else EMPTY
    if len(start) == 0:
        return EMPTY, EMPTY
    order = np.argsort(start, kind="stable")
    start, end = start[order], end[order]
    latest_end = np.maximum.accumulate(end)
    head = np.ones(len(start), dtype=bool)
    head[1:] = start[1:] - latest_end[:-1] >= width
    heads = np.flatnonzero(head)
    return start[heads], np.maximum.reduceat(end, heads)


def bucket_width(tpp: float) -> int:
    """The power of two not above ``tpp`` (1 below 1 ns): the summary's bucket width."""
    return 1 << max(0, int(math.floor(math.log2(tpp)))) if tpp >= 1 else 1
