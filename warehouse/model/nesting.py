"""How the slices of one timeline thread nest: the one algorithm and the one tie-break.

Slices are taken in (start, longest first, smallest id first) order; each one's parent is
the innermost open slice that still encloses it. Of two slices with the same start and
duration the one with the smaller id (read first) encloses the other. Every source that
writes slices nests them here: inline while a trace streams in order (:class:`Stack`), or
afterwards over the (thread_id, ts, dur DESC) index, which reads a thread in exactly that
order, as array operations over a block of slices at a time (:func:`nest_source`,
:func:`nest_thread`, :func:`place_block`).

Both give the same tree because of what the stack holds: in nesting order a new slice pops
exactly the open slices ending before its end (at or before its start, for an instant), so its
parent is the nearest earlier slice of its thread ending at or after its end (after it, for an
instant; tests/test_nesting.py holds the two to the same tree). :func:`place_block` finds that
slice for every slice at once by pointer jumping, and the depths by list ranking along the parents.
"""

from __future__ import annotations

import itertools
import sqlite3
from dataclasses import dataclass, field

import numpy as np

#: slices read, placed and written per block while nesting afterwards
BATCH = 65536
THREAD_SLICES = "SELECT id, ts, dur FROM _slice WHERE thread_id = ? ORDER BY ts, dur DESC, id"
UPDATE_SLICE = "UPDATE _slice SET depth = ?, parent_id = nullif(?, -1) WHERE id = ?"  # -1: no parent


class Stack:
    """The open slices of one thread while its slices arrive in nesting order."""

    __slots__ = ("ends", "ids", "last_ts", "last_dur")

    def __init__(self):
        self.ends: list[int] = []  # end times of the open enclosing slices, outermost first
        self.ids: list[int] = []  # their slice ids
        self.last_ts = -(1 << 62)
        self.last_dur = 0

    def place(self, slice_id: int, ts: int, dur: int) -> tuple[int, int | None] | None:
        """(depth, parent id) of the next slice; None when it arrives out of nesting order
        (the thread is then nested afterwards with :func:`nest_thread`)."""
        if ts < self.last_ts or (ts == self.last_ts and dur > self.last_dur):
            return None
        ends, ids = self.ends, self.ids
        end = ts + dur
        while ends and (ends[-1] <= ts or ends[-1] < end):
            ends.pop()
            ids.pop()
        placed = (len(ends), ids[-1] if ids else None)
        ends.append(end)
        ids.append(slice_id)
        self.last_ts = ts
        self.last_dur = dur
        return placed


@dataclass(frozen=True)
class Open:
    """The slices of a thread still open where a block of it ended, outermost first: the block's
    last slice and its ancestors, which the next block's slices may nest in."""

    ids: np.ndarray = field(default_factory=lambda: np.empty(0, np.int64))
    ends: np.ndarray = field(default_factory=lambda: np.empty(0, np.int64))
    depths: np.ndarray = field(default_factory=lambda: np.empty(0, np.int64))


def place_block(ends: np.ndarray, instants: np.ndarray, carried: Open) -> tuple[np.ndarray, np.ndarray]:
    """(parent position or -1, depth) of ``carried``'s slices and then a block's, the block's given by
    their ``ends`` in nesting order (``instants`` 1 for a slice of no duration, else 0).

    Each slice guesses the slice before it and jumps along the current guesses (guess = the guess's
    guess) while its guess ends before it: every slice skipped ends before it, so the first guess
    that does not is the nearest, and the jumps lengthen as in pointer jumping (log2 of the block's
    length rounds for slices that nest in nothing). The depths are then counted along the parents by
    list ranking."""
    kept = len(carried.ids)
    end = np.concatenate([carried.ends, ends])
    needed = np.concatenate([carried.ends, ends + instants])  # an instant nests only in what ends after it
    guess = np.arange(-1, len(end) - 1)
    moving = np.arange(max(kept, 1), len(end))  # the carried slices are each other's parents already
    while moving.size:
        moving = moving[end[guess[moving]] < needed[moving]]
        guess[moving] = guess[guess[moving]]
        moving = moving[guess[moving] >= 0]
    depth = np.concatenate([carried.depths, (guess[kept:] >= 0).astype(np.int64)])
    up = guess.copy()
    up[:kept] = -1  # a carried slice's depth is known: the ranking stops there
    ranking = np.flatnonzero(up >= 0)
    while ranking.size:
        above = up[ranking]
        depth[ranking] += depth[above]
        up[ranking] = up[above]
        ranking = ranking[up[ranking] >= 0]
    return guess, depth


def still_open(ids: np.ndarray, ends: np.ndarray, parents: np.ndarray, depths: np.ndarray) -> Open:
    """The slices open after the last of a placed block: the last and its ancestors, outermost first."""
    chain = []
    at = len(ids) - 1
    while at >= 0:
        chain.append(at)
        at = int(parents[at])
    chain.reverse()
    return Open(ids[chain], ends[chain], depths[chain])


def nest_thread(conn: sqlite3.Connection, thread_id: int, *, placed: bool = False) -> int:
    """Write depth and parent_id of the thread's slices, a block at a time; return its longest duration.

    Slices are written at depth 0 without a parent, so only the nested ones are updated;
    ``placed`` says some were given a depth already (a trace that fell out of order midway):
    then every slice is rewritten.
    """
    cursor = conn.execute(THREAD_SLICES, (thread_id,))
    carried = Open()
    longest = 0
    while rows := cursor.fetchmany(BATCH):
        ids, ts, dur = np.fromiter(itertools.chain.from_iterable(rows), np.int64, 3 * len(rows)).reshape(-1, 3).T
        ends = ts + dur
        parents, depths = place_block(ends, (dur == 0).astype(np.int64), carried)
        every_id = np.concatenate([carried.ids, ids])
        kept = len(carried.ids)
        nested = parents[kept:] >= 0
        write = slice(None) if placed else nested
        parent_ids = np.where(nested, every_id[parents[kept:]], -1)
        conn.executemany(UPDATE_SLICE, zip(depths[kept:][write].tolist(), parent_ids[write].tolist(), ids[write].tolist()))
        longest = max(longest, int(dur.max()))
        carried = still_open(every_id, np.concatenate([carried.ends, ends]), parents, depths)
    return longest


def nest_source(conn: sqlite3.Connection, source_id: int) -> None:
    """Nest the slices of every thread of a source (written at depth 0), and set each thread's max_dur."""
    threads = [row[0] for row in conn.execute("SELECT id FROM thread WHERE source_id = ?", (source_id,))]
    longest = [(nest_thread(conn, thread_id), thread_id) for thread_id in threads]
    conn.executemany("UPDATE thread SET max_dur = ? WHERE id = ?", longest)
