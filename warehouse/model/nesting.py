"""How the slices of one timeline thread nest: the one algorithm and the one tie-break.

Slices are taken in (start, longest first, smallest id first) order; each one's parent is
the innermost open slice that still encloses it. Of two slices with the same start and
duration the one with the smaller id (read first) encloses the other. Every source that
writes slices nests them here: inline while a trace streams in order (:class:`Stack`), or
afterwards over the (thread_id, ts, dur DESC) index, which reads a thread in exactly that
order (:func:`nest_source`, :func:`nest_thread`).
"""

from __future__ import annotations

import sqlite3

#: rows written per executemany while re-nesting a thread
BATCH = 65536
THREAD_SLICES = "SELECT id, ts, dur FROM _slice WHERE thread_id = ? ORDER BY ts, dur DESC, id"
UPDATE_SLICE = "UPDATE _slice SET depth = ?, parent_id = ? WHERE id = ?"


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


def nest_thread(conn: sqlite3.Connection, thread_id: int, *, placed: bool = False) -> int:
    """Write depth and parent_id of the thread's slices; return its longest duration.

    Slices are written at depth 0 without a parent, so only the nested ones are updated;
    ``placed`` says some were given a depth already (a trace that fell out of order midway):
    then every slice is rewritten.
    """
    stack = Stack()
    updates = []
    longest = 0
    for slice_id, ts, dur in conn.execute(THREAD_SLICES, (thread_id,)):
        depth, parent = stack.place(slice_id, ts, dur)
        if dur > longest:
            longest = dur
        if placed or parent is not None:
            updates.append((depth, parent, slice_id))
        if len(updates) >= BATCH:
            conn.executemany(UPDATE_SLICE, updates)
            updates = []
    conn.executemany(UPDATE_SLICE, updates)
    return longest


def nest_source(conn: sqlite3.Connection, source_id: int) -> None:
    """Nest the slices of every thread of a source (written at depth 0), and set each thread's max_dur."""
    threads = [row[0] for row in conn.execute("SELECT id FROM thread WHERE source_id = ?", (source_id,))]
    longest = [(nest_thread(conn, thread_id), thread_id) for thread_id in threads]
    conn.executemany("UPDATE thread SET max_dur = ? WHERE id = ?", longest)
