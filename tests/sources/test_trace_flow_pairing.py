"""Flow pairing (warehouse/sources/trace_json/pair_flows.sql), one SQL pass, against the rule in Python.

The rule (package docstring of warehouse.sources.trace_json): per (category, flow_key), in
(ts, phase) order, an ``s`` starts a chain; every later ``t``/``f`` gets an arrow from the
chain's latest ``s``/``t`` when both bound to a slice; a ``t`` then becomes the latest, bound
or not; events before the key's first ``s`` make no arrow and start nothing. The SQL finds the
chain with running maxima over the whole table instead of per key, so keys that follow one
another (an ``s`` of one key just before an ``f`` of the next), events at equal times and ``t``
before the first ``s`` are what it could get wrong.
"""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from factories.warehouse_rows import SliceFactory, bound
from fuzz.harness import examples
from warehouse import db
from warehouse.sources.trace_json import flows

SLICES = 4
EVENT = st.tuples(
    st.sampled_from(["", "c"]),  # category
    st.sampled_from(["1", "2"]),  # flow key
    st.integers(0, 2),  # phase: s, t, f
    st.integers(0, 3),  # ts: often equal, so that phase order decides
    st.one_of(st.none(), st.integers(0, SLICES - 1)),  # the slice it bound to (an index), or none
    st.sampled_from([None, "", "a", "b"]),  # name
)


def expected_arrows(events: list[tuple]) -> list[tuple]:
    """The rule, event by event: (slice_out, slice_in, name, category, flow_key, ts_out, ts_in)."""
    arrows = []
    key = None
    for category, flow_key, phase, ts, slice_id, name in events:
        if (category, flow_key) != key:
            key, started, source, source_name, source_ts = (category, flow_key), False, None, None, None
        if phase == 0:
            started, source, source_name, source_ts = True, slice_id, name, ts
            continue
        if not started:
            continue
        if source is not None and slice_id is not None:
            arrows.append((source, slice_id, source_name or name, category or None, flow_key, source_ts, ts))
        if phase == 1:
            source, source_name, source_ts = slice_id, name, ts
    return arrows


@pytest.fixture(scope="module")
def sliced_warehouse(tmp_path_factory):
    """A warehouse holding a few slices for the flow events to bind to (shared by every example)."""
    conn = db.connect(tmp_path_factory.mktemp("pairing") / "warehouse.db")
    with bound(conn):
        for _ in range(SLICES):
            SliceFactory()
    yield conn
    conn.close()


@examples(60)
@given(st.lists(EVENT, max_size=30))
# a t at the time of its key's s still continues the chain (s sorts first at equal ts)
@example([("c", "1", 0, 2, 0, "a"), ("c", "1", 1, 2, 1, "b"), ("c", "1", 2, 3, 2, None)])
# an s of one key just before an f of the next makes no arrow
@example([("", "1", 0, 0, 0, "a"), ("", "2", 2, 1, 1, "b")])
def test_pairing_follows_the_rule(sliced_warehouse, drawn):
    sliced_warehouse.execute("DELETE FROM flow")
    slice_ids = [row[0] for row in sliced_warehouse.execute("SELECT id FROM _slice ORDER BY id")]
    source_id = sliced_warehouse.execute("SELECT source_id FROM _slice LIMIT 1").fetchone()[0]
    # the walk order: the order flow_events.sql writes the bound table in (index in the drawn list last)
    events = [(category, key, phase, ts * 1000, None if at is None else slice_ids[at], name)
              for (category, key, phase, ts, at, name), _ in
              sorted(zip(drawn, range(len(drawn))), key=lambda pair: (*pair[0][:2], pair[0][3], pair[0][2], pair[1]))]
    flows.create_staging(sliced_warehouse)
    sliced_warehouse.executemany(
        f"INSERT INTO {flows.SCHEMA}._trace_flow_bound (category, flow_key, phase, ts, slice_id, name) "
        "VALUES (?, ?, ?, ?, ?, ?)", events)
    made = flows.pair(sliced_warehouse, source_id)
    arrows = sliced_warehouse.execute(
        "SELECT slice_out, slice_in, name, category, flow_key, ts_out, ts_in FROM flow ORDER BY id").fetchall()
    assert arrows == expected_arrows(events)
    assert made == len(arrows)
