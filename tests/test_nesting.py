"""The one nesting algorithm (warehouse/model/nesting.py): every source nests the same way,
equal slices included (the first read encloses the other)."""

from __future__ import annotations

import sqlite3
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from factories import warehouse_rows
from factories.trace_json import EventFactory, render
from warehouse.ingest import ingest_file
from warehouse.model import nesting
from warehouse.model.nesting import Stack, nest_source


def test_stack_places_children_inside_and_refuses_out_of_order():
    stack = Stack()
    assert stack.place(1, 0, 100) == (0, None)
    assert stack.place(2, 0, 100) == (1, 1)  # equal to its parent: the first read encloses it
    assert stack.place(3, 10, 20) == (2, 2)
    assert stack.place(4, 40, 10) == (2, 2)  # 3 ended at 30
    assert stack.place(5, 100, 5) == (0, None)  # everything ended at 100
    assert stack.place(6, 50, 1) is None  # earlier than the last: nested afterwards instead


def test_nest_source_gives_the_same_tree_as_the_inline_pass(warehouse_db, tmp_path):
    """The same slices written unnested by row (as a rank db writes them, reversed) and streamed by
    a trace: the same depth and parent for each, by start and duration."""
    spans = [(0, 100), (0, 100), (10, 20), (40, 10), (100, 5)]
    with warehouse_rows.bound(warehouse_db):
        thread = warehouse_rows.ThreadFactory()
        ids = {}
        for ts, dur in reversed(spans):  # the rank db's order is not the nesting order
            ids.setdefault((ts, dur), []).insert(0, warehouse_rows.SliceFactory(thread_id=thread["id"], ts=ts, dur=dur)["id"])
        nest_source(warehouse_db, thread["source_id"])
    by_rows = warehouse_db.execute(
        "SELECT ts, dur, depth, parent_id IS NULL FROM _slice WHERE thread_id = ? ORDER BY ts, dur DESC, depth",
        (thread["id"],)).fetchall()
    events = [EventFactory(ts=f"{1_000_000 + ts}.000", dur=float(dur)) for ts, dur in spans]  # us
    path = tmp_path / "trace.json"
    path.write_bytes(render(events))
    source_id = ingest_file(warehouse_db, path).source_id
    by_trace = warehouse_db.execute(
        "SELECT (ts - 1000000000) / 1000, dur / 1000, depth, parent_id IS NULL FROM _slice WHERE source_id = ? "
        "ORDER BY ts, dur DESC, depth", (source_id,)).fetchall()
    assert by_rows == by_trace == [(0, 100, 0, 1), (0, 100, 1, 0), (10, 20, 2, 0), (40, 10, 2, 0), (100, 5, 0, 1)]
    # of the two equal slices written by row, the smaller id (read first) encloses the other
    first, second = sorted(ids[(0, 100)])
    assert warehouse_db.execute("SELECT parent_id FROM _slice WHERE id = ?", (second,)).fetchone() == (first,)
    assert warehouse_db.execute("SELECT max_dur FROM thread WHERE id = ?", (thread["id"],)).fetchone() == (100,)


#: slices of a few threads with many shared starts, equal spans and instants: the tie-breaks' cases
SPANS = st.lists(st.tuples(st.integers(1, 3), st.integers(0, 40), st.sampled_from([0, 0, 1, 2, 5, 10, 25, 40])),
                 max_size=120)


@settings(max_examples=60, deadline=None)
@given(spans=SPANS, batch=st.sampled_from([1, 2, 3, 7, 1000]), placed=st.booleans())
def test_nest_thread_places_every_slice_as_the_stack_does_across_blocks(tmp_path_factory, spans, batch, placed):
    """The array pass (nest_thread, a block of ``batch`` slices at a time, the open ones carried into
    the next block) gives each slice the depth and parent the inline Stack gives it, instants
    included (they nest only in what ends after them), and each thread's longest duration; with
    ``placed`` it also rewrites the slices that nest in nothing."""
    conn = sqlite3.connect(tmp_path_factory.mktemp("nest") / "slices.db")
    conn.execute("CREATE TABLE _slice (id INTEGER PRIMARY KEY, thread_id INTEGER, ts INTEGER, dur INTEGER, "
                 "depth INTEGER DEFAULT 0, parent_id INTEGER)")
    conn.executemany("INSERT INTO _slice (thread_id, ts, dur, depth) VALUES (?, ?, ?, 9)" if placed else
                     "INSERT INTO _slice (thread_id, ts, dur) VALUES (?, ?, ?)", spans)
    ordered = conn.execute("SELECT thread_id, id, ts, dur FROM _slice ORDER BY thread_id, ts, dur DESC, id").fetchall()
    stacks: dict[int, Stack] = {}
    expected = {slice_id: stacks.setdefault(thread_id, Stack()).place(slice_id, ts, dur)
                for thread_id, slice_id, ts, dur in ordered}
    with mock.patch.object(nesting, "BATCH", batch):
        longest = {thread_id: nesting.nest_thread(conn, thread_id, placed=placed) for thread_id in stacks}
    placed_rows = {slice_id: (depth, parent) for slice_id, depth, parent in conn.execute("SELECT id, depth, parent_id FROM _slice")}
    assert placed_rows == expected
    assert longest == {thread_id: max(dur for t, _, _, dur in ordered if t == thread_id) for thread_id in stacks}
