"""The one nesting algorithm (warehouse/model/nesting.py): every source nests the same way,
equal slices included (the first read encloses the other)."""

from __future__ import annotations

from factories import warehouse_rows
from factories.trace_json import EventFactory, render
from warehouse.ingest import ingest_file
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
