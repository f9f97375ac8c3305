"""The timeline queries touch only the rows they answer with, whatever the warehouse's size.

Counted in SQLite virtual-machine steps (a progress handler), which is deterministic, not in time:
a query that scans or materializes every slice takes hundreds of thousands of steps here.
"""

from __future__ import annotations

import pytest

from factories.warehouse_rows import FlowFactory, SliceFactory, ThreadFactory
from warehouse import queries, sqlfiles
from warehouse.model import nesting
from warehouse.sources.trace_json import flows

SLICES = 50_000
STEP_BUDGET = 20_000


@pytest.fixture
def big_thread(rows):
    """50,000 slices of 50 ns every 100 ns; the one at 2.5 ms has two children and a flow."""
    thread = ThreadFactory()
    rows.executemany(
        "INSERT INTO _slice (thread_id, ts, dur, depth, source_id) VALUES (?, ?, 50, 0, ?)",
        [(thread["id"], 100 * i, thread["source_id"]) for i in range(SLICES) if i != SLICES // 2],
    )
    middle = SliceFactory(thread_id=thread["id"], ts=100 * (SLICES // 2), dur=50, name="middle")
    for offset in (10, 30):
        SliceFactory(thread_id=thread["id"], ts=middle["ts"] + offset, dur=10, depth=1, parent_id=middle["id"])
    FlowFactory(slice_out=middle["id"], slice_in=1)
    return {"thread_id": thread["id"], "middle": middle["id"]}


def vm_steps(conn, name: str, params: dict) -> int:
    """The virtual-machine steps the query takes (to the nearest 100), after checking it answers."""
    ticks = [0]

    def tick():
        ticks[0] += 1
        return 0

    conn.set_progress_handler(tick, 100)
    try:
        _, result = queries.get(name).run(conn, {k: str(v) for k, v in params.items()})
    finally:
        conn.set_progress_handler(None, 0)
    assert result, name
    return ticks[0] * 100


@pytest.mark.parametrize(
    "name,params",
    (
        ("timeline_slices", lambda t: {"thread_id": t["thread_id"], "start": 2_500_000, "end": 2_510_000}),
        ("slice_detail", lambda t: {"slice_id": t["middle"]}),
        ("slice_flows", lambda t: {"slice_id": t["middle"]}),
        ("slice_children", lambda t: {"slice_id": t["middle"]}),
        ("timeline_threads", lambda t: {}),
        ("timeline_processes", lambda t: {}),
    ),
)
def test_timeline_queries_do_not_scan_the_slices(rows, big_thread, name, params):
    assert vm_steps(rows, name, params(big_thread)) < STEP_BUDGET


def _plan(conn, sql: str, params) -> list[str]:
    return [row[3] for row in conn.execute("EXPLAIN QUERY PLAN " + sql, params)]


def test_a_thread_is_read_in_nesting_order_without_a_sort(rows):
    """Nesting (ts, dur DESC, id), the flow binding (the same order backward) and the timeline's
    per-thread read follow the (thread_id, ts, dur DESC) index: none sorts the slices of a thread."""
    flows.create_staging(rows)
    plans = {
        "nesting": _plan(rows, nesting.THREAD_SLICES, (1,)),
        "flow binding": _plan(rows, sqlfiles.text(flows.SQL_DIR / "flow_events.sql"), {}),
        "insight_thread_slices": _plan(rows, queries.get("insight_thread_slices").sql, {"thread_id": 1}),
    }
    for name, plan in plans.items():
        assert any("_slice_thread_ts" in step for step in plan), (name, plan)
        # the binding sorts its flow events by key from the staging table's primary key, not with a B-tree either
        assert not any("TEMP B-TREE" in step for step in plan), (name, plan)
