"""The trace JSON loader counts its slices per name while writing them (temp._slice_name_count), and
the name search's name_use takes those counts instead of reading the slices back: the counts must be
exactly what reading them back gives, for every kind of slice, across batches and traces."""

from __future__ import annotations

import pytest

from factories.trace_json import EventFactory, TraceFileFactory, render
from warehouse import ingest
from warehouse.model import derived
from warehouse.sources import trace_json

T0 = 1_736_408_883_688_000  # µs

#: name_use's slice rows of a source: (name, row_count)
NAME_USE = ("SELECT s.value, u.row_count FROM name_use AS u JOIN string AS s ON s.id = u.string_id "
            "WHERE u.input_source_id = ? AND u.kind = 'slice' ORDER BY s.value")
#: the same counts read back from the source's slices
READ_BACK = ("SELECT n.value, count(*) FROM _slice AS s JOIN thread AS t ON t.id = s.thread_id "
             "JOIN string AS n ON n.id = s.name_id WHERE t.source_id = ? GROUP BY n.value ORDER BY n.value")


def us(offset_us: int) -> str:
    return f"{T0 + offset_us}.000"


def every_kind_of_slice() -> list[dict]:
    """X, instants, B/E, async b/n/e, an unnamed X, an out-of-order thread; 'matmul' on three threads."""
    events = [EventFactory(name="matmul", ts=us(i * 10), dur=5.0) for i in range(7)]
    events += [EventFactory(name="add", ts=us(100), dur=1.0, tid=2), EventFactory(name="matmul", ts=us(50), dur=1.0, tid=2)]
    events += [EventFactory(ph="i", name="mark", ts=us(3), dur=None, s="t")]
    events += [EventFactory(ph="B", name="fwd", ts=us(200), dur=None, tid=3),
               EventFactory(ph="E", name="fwd", ts=us(210), dur=None, tid=3),
               EventFactory(ph="E", name="unmatched", ts=us(220), dur=None, tid=3)]
    events += [EventFactory(ph="b", name="alloc", ts=us(0), dur=None, id=1, cat="memory"),
               EventFactory(ph="n", name="mark", ts=us(1), dur=None, id=1, cat="memory"),
               EventFactory(ph="e", name="alloc", ts=us(2), dur=None, id=1, cat="memory")]
    events += [EventFactory(name=None, ts=us(300), dur=1.0, tid=4), EventFactory(name="matmul", ts=us(301), dur=1.0, tid=4)]
    events += [EventFactory(ph="C", name="mem", ts=us(5), dur=None, args={"used": 1})]
    return events


@pytest.mark.parametrize("chunk_bytes", (64, 8 << 20))
def test_name_use_counts_every_slice_of_the_trace_by_name(warehouse_db, tmp_path, monkeypatch, chunk_bytes):
    monkeypatch.setattr(trace_json, "CHUNK_BYTES", chunk_bytes)  # 64: a batch per event or two
    first = ingest.ingest_file(warehouse_db, TraceFileFactory(path=tmp_path / "a.json", events=every_kind_of_slice()))
    second = ingest.ingest_file(warehouse_db, TraceFileFactory(
        path=tmp_path / "b.json", events=[EventFactory(name="matmul", ts=us(i), dur=0.5) for i in range(3)]))
    assert (first.status, second.status) == ("ok", "ok")
    expected = [("add", 1), ("alloc", 1), ("fwd", 1), ("mark", 2), ("matmul", 9)]
    assert warehouse_db.execute(NAME_USE, (first.source_id,)).fetchall() == expected
    assert warehouse_db.execute(READ_BACK, (first.source_id,)).fetchall() == expected
    assert warehouse_db.execute(NAME_USE, (second.source_id,)).fetchall() == [("matmul", 3)]
    # the counts were used and forgotten: nothing is left for a later input with the same id
    assert warehouse_db.execute("SELECT count(*) FROM temp._slice_name_count").fetchone() == (0,)


def test_two_traces_of_one_source_add_up_and_a_failed_one_counts_nothing(warehouse_db):
    """An operator profile may hold trace blocks: each is a loader of its own on the same source."""
    source_id = warehouse_db.execute(
        "INSERT INTO source (path, sha256, size_bytes, status, ingested_at) VALUES ('x', 'x', 0, 'ok', 'now')"
    ).lastrowid
    warehouse_db.execute("BEGIN")
    for names in (["matmul", "add"], ["matmul"]):
        payload = render([EventFactory(name=name, ts=us(i), dur=0.5) for i, name in enumerate(names)], "op")
        trace_json.ingest_trace_bytes(warehouse_db, payload, source_id, label="block")
    bad = render([EventFactory(name="add", ts=us(0), dur=0.5), EventFactory(ts="x.yz")])
    with pytest.raises(trace_json.IngestError, match=r"^block: event 1: "):
        trace_json.ingest_trace_bytes(warehouse_db, bad, source_id, label="block")
    derived.count_names(warehouse_db, source_id)
    warehouse_db.execute("COMMIT")
    assert warehouse_db.execute(NAME_USE, (source_id,)).fetchall() == [("add", 1), ("matmul", 2)]
    assert warehouse_db.execute(READ_BACK, (source_id,)).fetchall() == [("add", 1), ("matmul", 2)]
