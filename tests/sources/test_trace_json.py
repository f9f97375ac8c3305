"""The trace JSON source: shapes, exact times, nesting, flows, counters, metadata, async, failures, CLI."""

from __future__ import annotations

import bisect
import gzip
import itertools
import json
from collections import defaultdict
from decimal import Decimal
from pathlib import Path

import pytest

from tests.factories.trace_json import EventFactory, TraceFileFactory, render
from warehouse import ingest
from warehouse.cli import cli
from warehouse.sources import trace_json

T0 = 1_736_408_883_688_000  # µs


def us(offset_ns: int) -> str:
    """A torch_npu ts string ``offset_ns`` after T0."""
    total = T0 * 1000 + offset_ns
    return f"{total // 1000}.{total % 1000:03d}"


def ns(offset_ns: int) -> int:
    return T0 * 1000 + offset_ns


def load(conn, path: Path) -> ingest.FileResult:
    result = ingest.ingest_file(conn, path)
    assert result.status == "ok", result.error
    return result


def slices(conn, where: str = "1") -> list[tuple]:
    return conn.execute(
        f"SELECT name, ts, dur, depth, (SELECT name FROM slice AS p WHERE p.id = s.parent_id) "
        f"FROM slice AS s WHERE {where} ORDER BY ts, depth"
    ).fetchall()


# --- shapes and times -------------------------------------------------------------------------

@pytest.mark.parametrize(("shape", "gz"), (("array", False), ("kineto", False), ("op", False), ("array", True),
                                           ("kineto", True)))
def test_every_shape_reads_the_same_slices(warehouse_db, tmp_path, shape, gz):
    events = [
        EventFactory(name="outer", ts=us(0), dur=10.0),
        EventFactory(name="inner", ts=us(1_000), dur=2.5, args={"Input Dims": "[1, 2]"}),
    ]
    path = TraceFileFactory(path=tmp_path / f"t.json{'.gz' if gz else ''}", events=events, shape=shape, gz=gz)
    assert trace_json.detect(path)
    load(warehouse_db, path)
    assert slices(warehouse_db) == [("outer", ns(0), 10_000, 0, None), ("inner", ns(1_000), 2_500, 1, "outer")]
    args = warehouse_db.execute("SELECT args FROM slice WHERE name = 'inner'").fetchone()[0]
    assert json.loads(args) == {"Input Dims": "[1, 2]"}
    assert warehouse_db.execute("SELECT args FROM slice WHERE name = 'outer'").fetchone()[0] is None


def test_other_top_level_keys_are_kept_and_kineto_rank_is_the_source_rank(warehouse_db, tmp_path):
    path = TraceFileFactory(path=tmp_path / "k.json", shape="kineto", top={"displayTimeUnit": "ms"})
    result = load(warehouse_db, path)
    facts = dict(warehouse_db.execute("SELECT name, value FROM run_metadata WHERE source_id = ?", (result.source_id,)))
    assert json.loads(facts["distributedInfo"]) == {"backend": "hccl", "rank": 3, "world_size": 8}
    assert json.loads(facts["traceName"]) == "trace.json"
    assert json.loads(facts["displayTimeUnit"]) == "ms"
    assert "traceEvents" not in facts
    assert warehouse_db.execute("SELECT rank_id FROM source WHERE id = ?", (result.source_id,)).fetchone() == (3,)
    assert {row[0] for row in warehouse_db.execute("SELECT rank_id FROM process")} == {3}


@pytest.mark.parametrize(("ts", "dur", "expected_ts", "expected_dur"), (
    ("1736408883688177.930", 145.57, 1_736_408_883_688_177_930, 145_570),  # string ts: exact
    ("1736408883688177.9", 1, 1_736_408_883_688_177_900, 1_000),  # fewer decimals
    ("1736408883688177.9305", 0.0004, 1_736_408_883_688_177_930, 0),  # more: rounded half to even
    (1_623_143_093_496_523, 21, 1_623_143_093_496_523_000, 21_000),  # kineto: integer µs, exact
    (3.568000078201294, 0.0010000000474974513, 3_568, 1),  # op simulator: float µs, rounded
))
def test_times_are_exact_integer_nanoseconds(warehouse_db, tmp_path, ts, dur, expected_ts, expected_dur):
    path = TraceFileFactory(path=tmp_path / "t.json", events=[EventFactory(ts=ts, dur=dur)])
    load(warehouse_db, path)
    assert warehouse_db.execute("SELECT ts, dur FROM slice").fetchall() == [(expected_ts, expected_dur)]


# --- nesting ----------------------------------------------------------------------------------

NESTED = [  # name, start ns, dur ns: a -> (b -> c, d), e
    ("a", 0, 100_000), ("b", 10_000, 30_000), ("c", 10_000, 5_000), ("d", 50_000, 10_000), ("e", 200_000, 1_000),
]
EXPECTED_NESTING = [
    ("a", ns(0), 100_000, 0, None), ("b", ns(10_000), 30_000, 1, "a"), ("c", ns(10_000), 5_000, 2, "b"),
    ("d", ns(50_000), 10_000, 1, "a"), ("e", ns(200_000), 1_000, 0, None),
]


@pytest.mark.parametrize("order", ("sorted", "reversed", "shuffled"))
def test_depth_and_parent_whatever_the_order_of_the_input(warehouse_db, tmp_path, order):
    events = [EventFactory(name=name, ts=us(start), dur=dur / 1000) for name, start, dur in NESTED]
    if order == "reversed":
        events.reverse()
    elif order == "shuffled":
        events = [events[i] for i in (3, 0, 4, 2, 1)]
    load(warehouse_db, TraceFileFactory(path=tmp_path / "t.json", events=events))
    assert slices(warehouse_db) == EXPECTED_NESTING


def test_begin_end_pairs_nest_like_complete_events(warehouse_db, tmp_path):
    events = [
        EventFactory(ph="B", name="a", ts=us(0), dur=None),
        EventFactory(ph="B", name="b", ts=us(10_000), dur=None, args={"x": 1}),
        EventFactory(ph="B", name="c", ts=us(10_000), dur=None),
        EventFactory(ph="E", name=None, ts=us(15_000), dur=None),
        EventFactory(ph="E", name=None, ts=us(40_000), dur=None, args={"y": 2}),
        EventFactory(name="d", ts=us(50_000), dur=10.0),
        EventFactory(ph="E", name=None, ts=us(100_000), dur=None),
        EventFactory(ph="E", name=None, ts=us(150_000), dur=None),  # nothing open: dropped, counted
        EventFactory(ph="B", name="never ended", ts=us(160_000), dur=None),
        EventFactory(ph="i", name="e", ts=us(200_000), dur=None),
    ]
    result = load(warehouse_db, TraceFileFactory(path=tmp_path / "t.json", events=events))
    assert slices(warehouse_db) == [
        ("a", ns(0), 100_000, 0, None), ("b", ns(10_000), 30_000, 1, "a"), ("c", ns(10_000), 5_000, 2, "b"),
        ("d", ns(50_000), 10_000, 1, "a"), ("e", ns(200_000), 0, 0, None),
    ]
    assert json.loads(warehouse_db.execute("SELECT args FROM slice WHERE name = 'b'").fetchone()[0]) == {"x": 1, "y": 2}
    detail = json.loads(warehouse_db.execute("SELECT detail FROM source WHERE id = ?", (result.source_id,)).fetchone()[0])
    assert detail["unmatched_end"] == 1 and detail["unended_begin"] == 1
    assert detail["renested_threads"] == 1
    assert warehouse_db.execute("SELECT max_dur FROM thread").fetchone() == (100_000,)


def test_a_slice_overlapping_its_neighbour_is_not_nested_under_it(warehouse_db, tmp_path):
    events = [EventFactory(name="a", ts=us(0), dur=10.0), EventFactory(name="b", ts=us(5_000), dur=10.0),
              EventFactory(name="c", ts=us(6_000), dur=1.0)]
    load(warehouse_db, TraceFileFactory(path=tmp_path / "t.json", events=events))
    assert slices(warehouse_db) == [("a", ns(0), 10_000, 0, None), ("b", ns(5_000), 10_000, 0, None),
                                    ("c", ns(6_000), 1_000, 1, "b")]


def test_events_split_across_chunks_and_strings_that_look_like_boundaries(warehouse_db, tmp_path, monkeypatch):
    # tiny chunks: every cut lands in the middle of events, many inside the tricky string
    monkeypatch.setattr(trace_json, "CHUNK_BYTES", 64)
    tricky = 'x}, {"ph": "X", "ts": 1}, {y ]'
    events = [EventFactory(name=f"s{i}", ts=us(i * 10_000), dur=1.0, args={"Call stack": tricky, "n": [i, {}]})
              for i in range(40)]
    for shape in ("array", "kineto"):
        path = TraceFileFactory(path=tmp_path / f"{shape}.json", events=events, shape=shape)
        load(warehouse_db, path)
    rows = warehouse_db.execute("SELECT name, ts, args, source_row FROM slice ORDER BY source_id, ts").fetchall()
    assert [(name, ts, row) for name, ts, _, row in rows] == [(f"s{i}", ns(i * 10_000), i) for i in range(40)] * 2
    assert all(json.loads(args)["Call stack"] == tricky for _, _, args, _ in rows)


# --- flows ------------------------------------------------------------------------------------

def test_flows_bind_to_enclosing_and_next_slices(warehouse_db, tmp_path):
    host = {"pid": 100, "tid": 1}
    device = {"pid": 200, "tid": 7}
    events = [
        EventFactory(name="op", ts=us(0), dur=50.0, **host),
        EventFactory(name="launch", ts=us(10_000), dur=5.0, **host),
        EventFactory(name="kernel1", ts=us(100_000), dur=20.0, **device),
        EventFactory(name="kernel2", ts=us(130_000), dur=20.0, **device),
        EventFactory(name="kernel3", ts=us(200_000), dur=20.0, **device),
        # f before s in the file, as kineto writes them; s binds to the deepest enclosing slice
        EventFactory(ph="f", bp="e", id=7, cat="async_npu", name="torch_to_npu", ts=us(105_000), dur=None, **device),
        EventFactory(ph="s", id=7, cat="async_npu", name="torch_to_npu", ts=us(12_000), dur=None, **host),
        # one s fanning out to two f (HostToDevice); the second f without bp binds to the next slice
        EventFactory(ph="s", id="h1", cat="HostToDevice", name="HostToDevice", ts=us(40_000), dur=None, **host),
        EventFactory(ph="f", bp="e", id="h1", cat="HostToDevice", name="HostToDevice", ts=us(130_000), dur=None,
                     **device),
        EventFactory(ph="f", id="h1", cat="HostToDevice", name="HostToDevice", ts=us(180_000), dur=None, **device),
        # same id, other category: another flow; its f has no s, so no arrow
        EventFactory(ph="f", bp="e", id=7, cat="other", name="orphan", ts=us(100_000), dur=None, **device),
        # an s outside every slice makes no arrow
        EventFactory(ph="s", id=9, cat="async_npu", name="lost", ts=us(90_000), dur=None, **host),
        EventFactory(ph="f", bp="e", id=9, cat="async_npu", name="lost", ts=us(100_000), dur=None, **device),
    ]
    load(warehouse_db, TraceFileFactory(path=tmp_path / "t.json", events=events))
    flows = warehouse_db.execute(
        "SELECT o.name, i.name, f.name, f.category, f.flow_key, f.ts_out, f.ts_in FROM flow AS f "
        "JOIN slice AS o ON o.id = f.slice_out JOIN slice AS i ON i.id = f.slice_in ORDER BY i.ts"
    ).fetchall()
    # each arrow keeps its events' own times, not the bound slices' starts (the f at 180 us binds to kernel3 at 200)
    assert flows == [
        ("launch", "kernel1", "torch_to_npu", "async_npu", "7", ns(12_000), ns(105_000)),
        ("op", "kernel2", "HostToDevice", "HostToDevice", "h1", ns(40_000), ns(130_000)),
        ("op", "kernel3", "HostToDevice", "HostToDevice", "h1", ns(40_000), ns(180_000)),
    ]


def test_flow_steps_chain_and_id2_keys(warehouse_db, tmp_path):
    events = [EventFactory(name=name, ts=us(start), dur=10.0, tid=tid)
              for name, start, tid in (("a", 0, 1), ("b", 100_000, 2), ("c", 200_000, 3))]
    events += [
        # a t and an f before any s: no arrow, and the t is not a source
        EventFactory(ph="t", id2={"global": "0x1"}, cat="c", name="early", ts=us(0), dur=None, tid=1),
        EventFactory(ph="f", bp="e", id2={"global": "0x1"}, cat="c", name="early", ts=us(500), dur=None, tid=1),
        EventFactory(ph="s", id2={"global": "0x1"}, cat="c", name="chain", ts=us(1_000), dur=None, tid=1),
        EventFactory(ph="t", id2={"global": "0x1"}, cat="c", name="chain", ts=us(101_000), dur=None, tid=2),
        EventFactory(ph="f", bp="e", id2={"global": "0x1"}, cat="c", name="chain", ts=us(201_000), dur=None, tid=3),
    ]
    load(warehouse_db, TraceFileFactory(path=tmp_path / "t.json", events=events))
    flows = warehouse_db.execute(
        "SELECT o.name, i.name, f.flow_key, f.ts_out, f.ts_in FROM flow AS f JOIN slice AS o ON o.id = f.slice_out "
        "JOIN slice AS i ON i.id = f.slice_in ORDER BY o.ts"
    ).fetchall()
    # a t ends one arrow and starts the next at its own time
    assert flows == [("a", "b", "0x1", ns(1_000), ns(101_000)), ("b", "c", "0x1", ns(101_000), ns(201_000))]


def test_cname_is_kept_per_slice(warehouse_db, tmp_path):
    """An event's "cname" (the color name trace viewers draw it with) is kept per slice, for X, B/E and
    instants alike; a slice without one has none."""
    events = [
        EventFactory(name="x", ts=us(0), dur=10.0, cname="good"),
        EventFactory(name="plain", ts=us(20_000), dur=10.0),
        EventFactory(ph="B", name="be", ts=us(40_000), dur=None, cname="bad"),
        EventFactory(ph="E", name="be", ts=us(45_000), dur=None),
        EventFactory(ph="i", name="mark", ts=us(50_000), dur=None, cname="terrible"),
    ]
    load(warehouse_db, TraceFileFactory(path=tmp_path / "t.json", events=events))
    rows = warehouse_db.execute(
        "SELECT n.value, c.value FROM _slice AS s JOIN string AS n ON n.id = s.name_id "
        "LEFT JOIN string AS c ON c.id = s.cname_id ORDER BY s.ts"
    ).fetchall()
    assert rows == [("x", "good"), ("plain", None), ("be", "bad"), ("mark", "terrible")]


# --- counters, metadata, async ----------------------------------------------------------------

def test_counters_one_series_per_arg(warehouse_db, tmp_path):
    events = [
        EventFactory(ph="C", name="HBM 0", pid=300, ts=us(0), dur=None, cat=None,
                     args={"Read(MB/s)": 10.5, "Write(MB/s)": 3}),
        EventFactory(ph="C", name="HBM 0", pid=300, ts=us(1_000), dur=None, cat=None,
                     args={"Read(MB/s)": 11.0, "Write(MB/s)": 4, "note": "text is skipped"}),
        EventFactory(ph="C", name="AI Core Freq", pid=301, ts="1736408883688000.500", dur=None, cat=None,
                     args={"MHz": 1800.0}),
        EventFactory(ph="C", name="queue", id=2, pid=301, ts=us(0), dur=None, cat=None, args={"length": 5}),
    ]
    load(warehouse_db, TraceFileFactory(path=tmp_path / "t.json", events=events))
    rows = warehouse_db.execute(
        "SELECT c.name, p.pid, c.ts, c.value FROM counter AS c JOIN counter_track AS t ON t.id = c.track_id "
        "JOIN process AS p ON p.id = t.process_id ORDER BY c.name, c.ts"
    ).fetchall()
    assert rows == [
        ("AI Core Freq.MHz", "301", ns(500), 1800.0),
        ("HBM 0.Read(MB/s)", "300", ns(0), 10.5), ("HBM 0.Read(MB/s)", "300", ns(1_000), 11.0),
        ("HBM 0.Write(MB/s)", "300", ns(0), 3.0), ("HBM 0.Write(MB/s)", "300", ns(1_000), 4.0),
        ("queue 2.length", "301", ns(0), 5.0),
    ]


def test_metadata_names_labels_and_sort_order(warehouse_db, tmp_path):
    def meta(name, args, pid=100, tid=0):
        return EventFactory(ph="M", name=name, pid=pid, tid=tid, ts=None, dur=None, cat=None, args=args)

    events = [
        meta("process_name", {"name": "Python"}), meta("process_labels", {"labels": "CPU"}),
        meta("process_sort_index", {"sort_index": 5}),
        meta("process_name", {"name": "Ascend Hardware"}, pid="core2.veccore1"),
        meta("thread_name", {"name": "main"}, tid=1), meta("thread_sort_index", {"sort_index": 2}, tid=1),
        meta("process_uptime_seconds", {"uptime": 3}),  # not a name: counted as ignored
        EventFactory(pid=100, tid=1), EventFactory(pid="core2.veccore1", tid="SCALAR"),
    ]
    result = load(warehouse_db, TraceFileFactory(path=tmp_path / "t.json", events=events))
    assert warehouse_db.execute("SELECT pid, name, labels, sort_index FROM process ORDER BY id").fetchall() == [
        ("100", "Python", "CPU", 5), ("core2.veccore1", "Ascend Hardware", None, None)]
    assert warehouse_db.execute(
        "SELECT p.pid, t.tid, t.name, t.sort_index FROM thread AS t JOIN process AS p ON p.id = t.process_id "
        "ORDER BY t.id").fetchall() == [("100", "1", "main", 2), ("core2.veccore1", "SCALAR", None, None)]
    detail = json.loads(warehouse_db.execute("SELECT detail FROM source WHERE id = ?", (result.source_id,)).fetchone()[0])
    assert detail["ignored_phases"] == {"M process_uptime_seconds": 1}
    assert detail["phases"] == {"M": 7, "X": 2}


def test_async_events_get_a_thread_per_category_and_id(warehouse_db, tmp_path):
    def event(ph, name, ts, id_, cat="memory"):
        return EventFactory(ph=ph, name=name, ts=us(ts), id=id_, cat=cat, dur=None)

    events = [event("b", "alloc", 0, 1), event("b", "inner", 10_000, 1), event("n", "mark", 15_000, 1),
              event("e", "inner", 20_000, 1), event("e", "alloc", 50_000, 1),
              event("b", "other", 5_000, 2), event("e", "other", 6_000, 2)]
    load(warehouse_db, TraceFileFactory(path=tmp_path / "t.json", events=events))
    rows = warehouse_db.execute(
        "SELECT t.tid, t.name, s.name, s.ts, s.dur, s.depth FROM slice AS s JOIN thread AS t ON t.id = s.thread_id "
        "ORDER BY t.tid, s.ts").fetchall()
    assert rows == [
        ("async:memory:1", "alloc", "alloc", ns(0), 50_000, 0),
        ("async:memory:1", "alloc", "inner", ns(10_000), 10_000, 1),
        ("async:memory:1", "alloc", "mark", ns(15_000), 0, 2),
        ("async:memory:2", "other", "other", ns(5_000), 1_000, 0),
    ]


# --- the frame: re-ingest, force, failures, detection -----------------------------------------

def test_reingest_is_a_no_op_and_force_replaces(warehouse_db, tmp_path):
    events = [EventFactory(ts=us(0), dur=10.0), EventFactory(ph="s", id=1, ts=us(1_000), dur=None),
              EventFactory(ph="f", bp="e", id=1, ts=us(2_000), dur=None),
              EventFactory(ph="C", name="c", args={"v": 1}, ts=us(0), dur=None)]
    path = TraceFileFactory(path=tmp_path / "t.json", events=events)
    first = load(warehouse_db, path)
    counts = "SELECT (SELECT count(*) FROM slice), (SELECT count(*) FROM flow), (SELECT count(*) FROM counter), " \
             "(SELECT count(*) FROM thread), (SELECT count(*) FROM string), (SELECT count(*) FROM source)"
    before = warehouse_db.execute(counts).fetchone()
    assert before == (1, 1, 1, 1, 2, 1)
    assert first.rows == 1 + 1 + 1 + 1 + 1 + 1  # slice, flow, sample, track, process, thread
    assert ingest.ingest_file(warehouse_db, path).status == "unchanged"
    assert warehouse_db.execute(counts).fetchone() == before
    forced = ingest.ingest_file(warehouse_db, path, force=True)
    assert forced.status == "ok" and forced.source_id != first.source_id
    assert warehouse_db.execute(counts).fetchone() == before


@pytest.mark.parametrize(("text", "place", "reason"), (
    (b'[{"ph": "X", "ts": 1, "dur": 1}, {"ph": "X" "ts": 2}]', "byte 44", "expected ',' or '}'"),
    (b'[{"ph": "X", "ts": 1, "dur": 1}, {"ph": "X", "ts": [2]}]', "event 1", "wrong type"),
    (b'[{"ph": "X", "ts": "1.5x", "dur": 1}]', "event 0", "is not a number"),
    (b'[{"ph": "X", "ts": 1, "dur": 1}, {"ph": "X", "ts": 2, "du', "byte 57", "truncated"),
    (b'{"traceEvents": {"ph": "X"}}', "byte 1", "traceEvents is not an array"),
    (b'[{"ph": "X", "ts": 1, "dur": 1}] tail', "byte 33", "unexpected data after the event array"),
    (b'[{"ph": "X", "ts": 1, "dur": 1, "name": "\xff"}]', "byte 41", "text is not UTF-8"),
    (b'[{"ph": "X", "ts": 1, "dur": -1}]', "event 0", "negative dur"),
))
def test_bad_json_is_a_recorded_failure_naming_the_place(warehouse_db, tmp_path, text, place, reason):
    good = TraceFileFactory(path=tmp_path / "a_good.json")
    bad = tmp_path / "b_bad.json"
    bad.write_bytes(text)
    later = TraceFileFactory(path=tmp_path / "c_good.json")
    results = {r.path.name: r for r in ingest.ingest_paths(warehouse_db, [tmp_path])}
    assert results["a_good.json"].status == results["c_good.json"].status == "ok"
    failed = results["b_bad.json"]
    assert failed.status == "failed"
    assert failed.error.startswith(f"{bad}: {place}: ") and reason in failed.error, failed.error
    assert warehouse_db.execute("SELECT status, error FROM source WHERE path = ?", (str(bad),)).fetchone() == (
        "failed", failed.error)
    assert warehouse_db.execute("SELECT count(*) FROM slice").fetchone() == (6,)
    assert later.exists()


def test_lenient_ends_a_missing_bracket_and_a_trailing_comma(warehouse_db, tmp_path):
    truncated = tmp_path / "truncated.json"
    truncated.write_bytes(render([EventFactory(), EventFactory()])[:-1] + b",\n")
    comma = tmp_path / "comma.json"
    comma.write_bytes(b'{"profilingType": "op", "traceEvents": [\n{"ph": "X", "ts": 1, "dur": 1, "pid": 1, "tid": 1},\n]}')
    load(warehouse_db, truncated)
    load(warehouse_db, comma)
    detail = json.loads(warehouse_db.execute("SELECT detail FROM source WHERE path = ?", (str(truncated),)).fetchone()[0])
    assert detail["truncated"] is True
    assert warehouse_db.execute("SELECT count(*) FROM slice").fetchone() == (3,)


@pytest.mark.parametrize(("text", "claimed"), (
    (b'[{"ph": "X", "ts": 1}]', True),
    (b' \n[{"name": "c", "args": {"MHz": 1}, "ph": "C"}]', True),
    (b'{"schemaVersion": 1, "traceEvents": []}', True),
    (b'{"step50": {"collective": {}}}', False),  # communication.json
    (b'{"config": {}, "rank_id": 0}', False),  # profiler_info_0.json
    (b'[{"name": "x"}]', False),
    (b'[1, 2]', False),
    (b"Step Id,Name\n", False),
))
def test_detect_from_content(tmp_path, text, claimed):
    path = tmp_path / "trace_view.json"
    path.write_bytes(text)
    assert trace_json.detect(path) is claimed


def test_ingest_trace_bytes_reads_an_embedded_trace(warehouse_db):
    payload = render([EventFactory(pid="core2.veccore1", tid="SCALAR", ts=3.568000078201294, dur=0.001)], "op")
    source_id = warehouse_db.execute(
        "INSERT INTO source (path, sha256, size_bytes, status, ingested_at) VALUES ('x', 'x', 0, 'ok', 'now')"
    ).lastrowid
    rows = trace_json.ingest_trace_bytes(warehouse_db, payload + b"\0", source_id, rank_id=2, label="block")
    assert rows == 6  # slice, process, thread, 3 run_metadata (displayTimeUnit, profilingType, schemaVersion)
    assert warehouse_db.execute("SELECT ts, dur FROM slice").fetchall() == [(3_568, 1)]
    assert warehouse_db.execute("SELECT pid, rank_id FROM process").fetchall() == [("core2.veccore1", 2)]
    with pytest.raises(trace_json.IngestError, match=r"^block: byte 0: not a JSON array"):
        trace_json.ingest_trace_bytes(warehouse_db, b"nope", source_id, label="block")
    # a failure half-way keeps nothing of that trace, and leaves no staging table behind
    bad = render([EventFactory(name="kept?", ts=1, dur=1), EventFactory(ph="s", id=1, ts=1, dur=None),
                  EventFactory(ts="x.yz")])
    with pytest.raises(trace_json.IngestError, match=r"^block: event 2: "):
        trace_json.ingest_trace_bytes(warehouse_db, bad, source_id, label="block")
    assert warehouse_db.execute("SELECT count(*) FROM slice").fetchone() == (1,)
    assert warehouse_db.execute("SELECT count(*) FROM process").fetchone() == (1,)
    assert warehouse_db.execute("SELECT name FROM sqlite_master WHERE name = '_trace_flow_event'").fetchall() == []


# --- the command line -------------------------------------------------------------------------

def test_cli_ingest_info_and_sql(runner, tmp_path, warehouse_path):
    TraceFileFactory(path=tmp_path / "in" / "trace_view.json.gz", gz=True, events=[
        EventFactory(name="step", ts=us(0), dur=100.0), EventFactory(name="op", ts=us(1_000), dur=10.0)])
    (tmp_path / "in" / "notes.txt").write_text("not a trace")
    result = runner.invoke(cli, ["ingest", str(tmp_path / "in"), "--db", str(warehouse_path)])
    assert result.exit_code == 0, result.output
    assert "trace_json" in result.output and "skipped" in result.output
    info = json.loads(runner.invoke(cli, ["info", "--db", str(warehouse_path), "--json"]).output)
    assert info["row_counts"]["slice"] == 2
    assert [(s["kind"], s["status"]) for s in info["sources"]] == [(None, "skipped"), ("trace_json", "ok")]
    out = runner.invoke(cli, ["sql", "SELECT name, ts, dur, depth FROM slice ORDER BY ts", "--db", str(warehouse_path),
                              "--format", "json"]).output
    assert json.loads(out) == [{"name": "step", "ts": ns(0), "dur": 100_000, "depth": 0},
                               {"name": "op", "ts": ns(1_000), "dur": 10_000, "depth": 1}]


# --- the real samples -------------------------------------------------------------------------

def _real_traces(root: Path) -> list[Path]:
    patterns = ("msinsight/pytorch/text/**/trace_view.json*", "kineto/**/*.json*", "hta/**/*.json*")
    return sorted({path for pattern in patterns for path in root.glob(pattern)})


def _to_ns(value) -> int:
    if isinstance(value, str):
        return int((Decimal(value) * 1000).to_integral_value())
    return value * 1000 if isinstance(value, int) else round(value * 1000)


def expected_counts(path: Path) -> tuple[int, int, int]:
    """(slices, flows, counter samples) computed from json.load, independently of the source."""
    with gzip.open(path) if path.suffix == ".gz" else path.open("rb") as stream:
        document = json.load(stream)
    events = document if isinstance(document, list) else document["traceEvents"]
    slices = defaultdict(list)  # (pid, tid) text -> [(ts, end)]
    open_b = defaultdict(int)
    samples = 0
    for event in events:
        ph = event.get("ph")
        thread = (str(event.get("pid", "")), str(event.get("tid", "")))
        if ph == "X":
            start = _to_ns(event["ts"])
            slices[thread].append((start, start + _to_ns(event["dur"])))
        elif ph in ("i", "I"):
            start = _to_ns(event["ts"])
            slices[thread].append((start, start))
        elif ph == "B":
            open_b[thread] += 1
        elif ph == "E" and open_b[thread]:
            open_b[thread] -= 1
            slices[thread].append(None)  # counted; no real sample has B/E
        elif ph == "C":
            samples += sum(type(v) in (int, float) for v in event.get("args", {}).values())

    # per thread: span starts sorted, and the latest end among the spans starting up to each one
    starts, reach = {}, {}
    for thread, spans in slices.items():
        spans = sorted(span for span in spans if span)
        starts[thread] = [start for start, _ in spans]
        reach[thread] = list(itertools.accumulate((end for _, end in spans), max))

    def bound(event) -> bool:
        """Is there a slice the event binds to (see the module docstring)?"""
        at = _to_ns(event["ts"])
        thread = (str(event.get("pid", "")), str(event.get("tid", "")))
        first, ends = starts.get(thread, []), reach.get(thread, [])
        if event["ph"] == "f" and event.get("bp") != "e":
            return bisect.bisect_left(first, at) < len(first)
        upto = bisect.bisect_right(first, at)
        return upto > 0 and (ends[upto - 1] > at or first[upto - 1] == at)

    chains = defaultdict(list)
    for index, event in enumerate(events):
        if event.get("ph") in ("s", "t", "f") and "id" in event:
            chains[(event.get("cat", ""), str(event["id"]))].append(
                (_to_ns(event["ts"]), "stf".index(event["ph"]), index, event))
    flows = 0
    for chain in chains.values():
        source_bound = None  # None until the first s
        for _, phase, _, event in sorted(chain, key=lambda item: item[:3]):
            here = bound(event)
            if phase > 0 and source_bound and here:
                flows += 1
            if phase == 0 or (phase == 1 and source_bound is not None):
                source_bound = here
    return sum(len(v) for v in slices.values()), flows, samples


@pytest.mark.slow
def test_every_real_trace_ingests_with_the_counts_of_the_file(warehouse_db, realdata):
    traces = _real_traces(realdata)
    assert len(traces) == 11
    for path in traces:
        result = load(warehouse_db, path)
        got = warehouse_db.execute(
            "SELECT (SELECT count(*) FROM _slice WHERE source_id = :s), (SELECT count(*) FROM flow WHERE source_id = :s), "
            "(SELECT count(*) FROM _counter WHERE source_id = :s)", {"s": result.source_id}).fetchone()
        assert got == expected_counts(path), path
        # every parent encloses its child on the same thread
        assert warehouse_db.execute(
            "SELECT count(*) FROM _slice AS c JOIN _slice AS p ON p.id = c.parent_id WHERE c.source_id = ? AND "
            "(p.thread_id != c.thread_id OR c.ts < p.ts OR c.ts + c.dur > p.ts + p.dur OR c.depth != p.depth + 1)",
            (result.source_id,)).fetchone() == (0,)


def test_real_torch_npu_trace_values(warehouse_db, realdata):
    path = realdata / "msinsight/pytorch/text/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json.gz"
    result = load(warehouse_db, path)
    assert warehouse_db.execute("SELECT rank_id FROM source WHERE id = ?", (result.source_id,)).fetchone() == (0,)
    names = {row[0] for row in warehouse_db.execute("SELECT name FROM process")}
    assert names == {"Python", "CANN", "Ascend Hardware", "HCCL", "Overlap Analysis", "AI Core Freq", "Acc PMU", "HBM",
                     "LLC", "NPU MEM", "QoS", "Stars Soc Info"}
    first = warehouse_db.execute("SELECT ts, dur FROM slice WHERE source_row = 0").fetchone()
    with gzip.open(path) as stream:
        event = json.load(stream)[0]
    assert first == (_to_ns(event["ts"]), _to_ns(event["dur"]))


# --- the generator of the demo and the benchmark ----------------------------------------------

def test_synthetic_trace_is_deterministic_and_ingests_completely(warehouse_db, tmp_path):
    from warehouse.synth.trace_json import PROCESSES, write_trace

    first, second = tmp_path / "a.json.gz", tmp_path / "b.json"
    assert write_trace(first, 3000, seed=7) == write_trace(second, 3000, seed=7) == 3000
    with gzip.open(first) as stream:
        assert stream.read() == second.read_bytes()
    events = json.loads(second.read_bytes())
    result = load(warehouse_db, first)
    assert warehouse_db.execute("SELECT count(*) FROM process").fetchone() == (len(PROCESSES),)
    assert {row[0] for row in warehouse_db.execute("SELECT name FROM process")} == {name for name, _ in PROCESSES}
    assert (warehouse_db.execute("SELECT count(*) FROM _slice").fetchone()[0],
            warehouse_db.execute("SELECT count(*) FROM flow").fetchone()[0],
            warehouse_db.execute("SELECT count(*) FROM _counter").fetchone()[0]) == expected_counts(second)
    # every thread arrives in order (nested in the parse pass, no post-pass) and nests three deep
    detail = json.loads(warehouse_db.execute("SELECT detail FROM source WHERE id = ?", (result.source_id,)).fetchone()[0])
    assert "renested_threads" not in detail
    assert warehouse_db.execute("SELECT max(depth) FROM slice").fetchone() == (3,)
    # every flow of the generator binds at both ends
    assert warehouse_db.execute("SELECT count(*) FROM flow").fetchone()[0] == sum(e["ph"] == "f" for e in events)


def test_profiler_step_slices_become_steps_of_the_trace_rank(warehouse_db, tmp_path):
    events = [
        EventFactory(name="ProfilerStep#7", tid=1, ts=us(0), dur="100.000"),
        EventFactory(name="forward", tid=1, ts=us(1_000), dur="50.000"),
        EventFactory(name="ProfilerStep#7", tid=2, ts=us(5_000), dur="100.500"),  # a second track repeats it
        EventFactory(name="ProfilerStep#8", tid=1, ts=us(200_000), dur="90.000"),
        EventFactory(name="ProfilerStepX", tid=1, ts=us(300_000), dur="1.000"),  # not a step marker
    ]
    rank_folder = tmp_path / "rank4_ascend_pt"
    trace = rank_folder / "ASCEND_PROFILER_OUTPUT" / "trace_view.json"
    trace.parent.mkdir(parents=True)
    trace.write_bytes(render(events))
    result = load(warehouse_db, trace)
    assert warehouse_db.execute("SELECT rank_id, step_id, start_ns, end_ns, source_id FROM step ORDER BY step_id"
                                ).fetchall() == [
        (4, 7, ns(0), ns(5_000 + 100_500), result.source_id),
        (4, 8, ns(200_000), ns(290_000), result.source_id),
    ]
    # an earlier trace's step names are interned already: a second trace still finds its own steps
    other = tmp_path / "rank5_ascend_pt" / "trace_view.json"
    other.parent.mkdir()
    other.write_bytes(render([EventFactory(name="ProfilerStep#7", ts=us(9_000), dur="1.000")]))
    load(warehouse_db, other)
    assert warehouse_db.execute("SELECT rank_id, step_id, end_ns - start_ns FROM step WHERE rank_id = 5"
                                ).fetchall() == [(5, 7, 1_000)]


def test_real_torch_npu_trace_marks_its_step(warehouse_db, realdata):
    path = realdata / "msinsight/pytorch/text/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json.gz"
    load(warehouse_db, path)
    assert warehouse_db.execute("SELECT rank_id, step_id, start_ns, end_ns - start_ns FROM step").fetchall() == [
        (0, 50, 1_736_408_883_686_740_710, 155_985_800),
    ]
