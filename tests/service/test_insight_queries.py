"""The named queries of queries/_insight/ (internal: not in the public catalog) on exact rows (timeline) and on an ingested operator profile."""

from __future__ import annotations

import pytest

from factories import warehouse_rows
from factories.op_profile import CODE, CODE_PATH, CORES, OpProfileFactory
from factories.warehouse_rows import (CounterFactory, CounterTrackFactory, FlowFactory, ProcessFactory, SliceFactory,
                                      SourceFactory, ThreadFactory)
from warehouse import ingest, queries


def run(conn, name: str, **params) -> list[dict]:
    """The query's rows as dicts, parameters given as text as HTTP gives them."""
    columns, rows = queries.get(name).run(conn, {k: None if v is None else str(v) for k, v in params.items()})
    return [dict(zip(columns, row)) for row in rows]


@pytest.fixture
def timeline(warehouse_db):
    """A thread with a parent (two children) and a late slice; a second thread; a flow between them."""
    with warehouse_rows.bound(warehouse_db):
        process = ProcessFactory(pid="100")
        main = ThreadFactory(process=process, tid="1")
        other = ThreadFactory(process=process, tid="2")
        parent = SliceFactory(thread_id=main["id"], ts=0, dur=100, name="parent")
        first = SliceFactory(thread_id=main["id"], ts=10, dur=20, depth=1, parent_id=parent["id"], name="a")
        second = SliceFactory(thread_id=main["id"], ts=50, dur=30, depth=1, parent_id=parent["id"], name="b")
        late = SliceFactory(thread_id=main["id"], ts=500, dur=5, name="late", category=None)
        remote = SliceFactory(thread_id=other["id"], ts=60, dur=10, name="remote")
        flow = FlowFactory(slice_out=second["id"], slice_in=remote["id"], name="f", category="async")
    return {"conn": warehouse_db, "process": process, "main": main, "other": other, "parent": parent,
            "first": first, "second": second, "late": late, "remote": remote, "flow": flow}


def test_thread_and_process_threads(timeline):
    conn, main, other, process = timeline["conn"], timeline["main"], timeline["other"], timeline["process"]
    assert run(conn, "insight_thread", thread_id=main["id"]) == [{
        "thread_id": main["id"], "process_id": process["id"], "source_id": process["source_id"], "tid": "1",
        "name": "main", "max_dur": 100}]
    assert [(r["thread_id"], r["tid"], r["max_dur"]) for r in run(conn, "insight_process_threads",
                                                                  process_id=process["id"])] == [
        (main["id"], "1", 100), (other["id"], "2", 10)]
    with warehouse_rows.bound(conn):
        lonely = ProcessFactory(pid="7")
    assert run(conn, "insight_process_threads", process_id=lonely["id"]) == [{
        "process_id": lonely["id"], "source_id": lonely["source_id"], "process_name": lonely["name"],
        "thread_id": None, "tid": None, "max_dur": None}]
    assert run(conn, "insight_process_threads", process_id=999) == []


def test_thread_slices_in_index_order_with_string_ids(timeline):
    conn = timeline["conn"]
    rows = run(conn, "insight_thread_slices", thread_id=timeline["main"]["id"])
    assert [(r["id"], r["ts"], r["dur"], r["depth"]) for r in rows] == [
        (timeline[n]["id"], timeline[n]["ts"], timeline[n]["dur"], timeline[n]["depth"])
        for n in ("parent", "first", "second", "late")]
    assert run(conn, "insight_string", string_id=rows[0]["name_id"]) == [{"value": "parent"}]
    assert rows[-1]["category_id"] == 0  # no category


def test_slice_detail_self_time(timeline):
    conn = timeline["conn"]
    (parent,) = run(conn, "insight_slice_detail", slice_id=timeline["parent"]["id"])
    assert (parent["name"], parent["ts"], parent["dur"], parent["self_time"], parent["process_id"]) == (
        "parent", 0, 100, 50, timeline["process"]["id"])
    (late,) = run(conn, "insight_slice_detail", slice_id=timeline["late"]["id"])
    assert (late["self_time"], late["category"]) == (5, None)


@pytest.mark.parametrize(
    "depth,ts,expected",
    ((0, 55, "parent"), (1, 55, "second"), (1, 40, None), (0, 505, "late"), (0, 100, "parent"), (2, 55, None)),
)
def test_slice_at(timeline, depth, ts, expected):
    found = run(timeline["conn"], "insight_slice_at", thread_id=timeline["main"]["id"], depth=depth, ts=ts)
    assert [r["id"] for r in found] == ([timeline[expected]["id"]] if expected else [])


def test_slice_flows_give_both_ends(timeline):
    conn = timeline["conn"]
    expected = [{
        "flow_id": timeline["flow"]["id"], "flow_key": timeline["flow"]["flow_key"], "name": "f",
        "category": "async", "from_id": timeline["second"]["id"], "from_process_id": timeline["process"]["id"],
        "from_thread_id": timeline["main"]["id"], "from_ts": 50, "from_dur": 30, "from_depth": 1, "from_name": "b",
        "to_id": timeline["remote"]["id"], "to_process_id": timeline["process"]["id"],
        "to_thread_id": timeline["other"]["id"], "to_ts": 60, "to_dur": 10, "to_depth": 0, "to_name": "remote"}]
    assert run(conn, "insight_slice_flows", slice_id=timeline["second"]["id"]) == expected
    assert run(conn, "insight_slice_flows", slice_id=timeline["remote"]["id"]) == expected
    assert run(conn, "insight_slice_flows", slice_id=timeline["first"]["id"]) == []


def test_source_start_is_the_earliest_slice_of_the_input(timeline):
    conn = timeline["conn"]
    source_id = conn.execute("SELECT source_id FROM thread WHERE id = ?", (timeline["main"]["id"],)).fetchone()[0]
    with warehouse_rows.bound(conn):  # an earlier slice on the other thread of the same input
        SliceFactory(thread_id=timeline["other"]["id"], ts=-7, dur=1, name="early")
    assert run(conn, "insight_source_start", source_id=source_id) == [{"start_ns": -7}]
    assert run(conn, "insight_source_start", source_id=-1) == [{"start_ns": None}]


def test_source_span_is_first_start_to_last_end(timeline):
    conn = timeline["conn"]
    # parent 0..100, late 500..505 on main, remote 60..70 on other: one input
    assert run(conn, "insight_source_span", source_id=timeline["process"]["source_id"]) == [
        {"start_ns": 0, "end_ns": 505}]
    assert run(conn, "insight_source_span", source_id=-1) == [{"start_ns": None, "end_ns": None}]


def test_source_extent_takes_the_drawn_counters_samples(timeline):
    """A counter of a process sampled before the first slice and after the last end widens the extent (the real
    text timeline's QUERY_EXETREME_TIME_SQL); a series without a process (not drawn) does not."""
    conn = timeline["conn"]
    source_id = timeline["process"]["source_id"]
    with warehouse_rows.bound(conn):
        drawn = CounterTrackFactory(source_id=source_id, process_id=timeline["process"]["id"], name="AI Core Freq.MHz")
        undrawn = CounterTrackFactory(source_id=source_id, process_id=None)
        for track, ts in ((drawn, -20), (drawn, 900), (undrawn, -100), (undrawn, 5_000)):
            CounterFactory(track_id=track["id"], ts=ts, source_id=source_id)
    assert run(conn, "insight_source_start", source_id=source_id) == [{"start_ns": -20}]
    assert run(conn, "insight_source_span", source_id=source_id) == [{"start_ns": -20, "end_ns": 900}]


def test_unit_tree_lists_threads_by_process_in_display_order(timeline):
    conn, process = timeline["conn"], timeline["process"]
    with warehouse_rows.bound(conn):
        first = ProcessFactory(source_id=process["source_id"], pid="5", name=None, labels="CPU", sort_index=0)
        shown = ThreadFactory(process=first, tid="9", name=None, sort_index=3)
        ProcessFactory(source_id=process["source_id"], pid="6")  # no thread: no lane
        ThreadFactory(tid="77")  # another input's
    rows = run(conn, "insight_unit_tree", source_id=process["source_id"])
    # sort_index first (0 before the process id); main holds depths 0 and 1, other depth 0
    assert rows == [
        {"process_id": first["id"], "pid": "5", "process_name": None, "labels": "CPU", "thread_id": shown["id"],
         "tid": "9", "thread_name": None, "depths": 0},
        {"process_id": process["id"], "pid": "100", "process_name": "python", "labels": None,
         "thread_id": timeline["main"]["id"], "tid": "1", "thread_name": "main", "depths": 2},
        {"process_id": process["id"], "pid": "100", "process_name": "python", "labels": None,
         "thread_id": timeline["other"]["id"], "tid": "2", "thread_name": "main", "depths": 1}]


def test_rank_inputs_group_a_runs_files_by_rank(warehouse_db):
    with warehouse_rows.bound(warehouse_db):
        db0 = SourceFactory(kind="rank_db", rank_id=0, path="/runs/run/rank0/a.db", device_id=4)
        info0 = SourceFactory(kind="profiler_info_json", rank_id=0, path="/runs/run/rank0/info.json")
        db1 = SourceFactory(kind="rank_db", rank_id=1, path="/runs/run/rank1/b.db")
        SourceFactory(kind="op_profile", card="add", rank_id=0)  # an operator profile: its own card
        SourceFactory(kind="trace_json", rank_id=1, status="failed")
        SourceFactory(kind="cluster_step_trace_time_csv")  # the whole cluster's: no rank
        lone = SourceFactory(kind="trace_json", rank_id=-1, path="/runs/t.json",
                             run_id=warehouse_rows.run_id("t.json"))
    rows = run(warehouse_db, "insight_rank_inputs")
    assert [(r["run_root"], r["run_ranks"], r["rank_id"], r["source_id"], r["kind"], r["device_id"], r["is_timeline"])
            for r in rows] == [
        ("/runs/run", 2, 0, db0["id"], "rank_db", 4, 1),
        ("/runs/run", 2, 0, info0["id"], "profiler_info_json", None, 0),
        ("/runs/run", 2, 1, db1["id"], "rank_db", None, 1), ("/runs/t.json", 1, -1, lone["id"], "trace_json", None, 1)]


def test_cards_are_ok_sources_with_a_card(warehouse_db):
    with warehouse_rows.bound(warehouse_db):
        card = SourceFactory(kind="op_profile", card="add_custom", path="/runs/a.bin")
        SourceFactory(kind="op_profile", card="broken", status="failed")
        SourceFactory(kind="trace_json")
    ((root,),) = warehouse_db.execute("SELECT root FROM run WHERE run_id = ?", (card["run_id"],)).fetchall()
    assert run(warehouse_db, "insight_cards") == [{"source_id": card["id"], "card": "add_custom",
                                                   "path": "/runs/a.bin", "kind": "op_profile", "rank_id": None,
                                                   "run_root": root}]


@pytest.fixture
def profile(warehouse_db, tmp_path):
    """An operator profile with every block, ingested; its source id."""
    written = OpProfileFactory(path=tmp_path / "visualize_data.bin")
    (result,) = ingest.ingest_paths(warehouse_db, [written.path])
    assert result.status == "ok"
    return result.source_id


def test_code_file_by_path_or_its_end(warehouse_db, profile):
    def find(name):
        return [(r["path"], r["exact"]) for r in run(warehouse_db, "insight_code_file", source_id=profile,
                                                     source_name=name)]

    assert find(CODE_PATH) == [(CODE_PATH, 1)]
    assert find("matmul_leakyrelu_custom.cpp") == [(CODE_PATH, 0)]
    assert find("leakyrelu_custom.cpp") == []  # only whole path components
    assert find("../" + CODE_PATH) == []
    assert run(warehouse_db, "insight_code_file", source_id=profile, source_name=CODE_PATH)[0]["content"] == CODE
    assert [r["path"] for r in run(warehouse_db, "insight_code_files", source_id=profile)] == [
        CODE_PATH, "/home/op/b.py"]


def test_hot_spot_lines_cores_and_metrics(warehouse_db, profile):
    assert [r["core"] for r in run(warehouse_db, "insight_cores", source_id=profile)] == CORES
    lines = run(warehouse_db, "insight_code_lines", source_id=profile, file=CODE_PATH, core=CORES[0])
    assert [(r["line"], r["cycles"], r["instructions_executed"]) for r in lines] == [(4, 100, 10), (5, 20, 2)]
    metrics = run(warehouse_db, "insight_code_line_metrics", source_id=profile, file=CODE_PATH, core=CORES[0])
    assert [(m["code_line_id"], m["name"], m["value"]) for m in metrics] == [
        (lines[0]["code_line_id"], "L2Cache Hit Rate", 50.5), (lines[1]["code_line_id"], "L2Cache Hit Rate", 75.0)]


def test_operator_detail_queries(warehouse_db, profile):
    (run_row,) = run(warehouse_db, "insight_op_run", source_id=profile)
    assert (run_row["name"], run_row["block_dim"], run_row["detail_key"], run_row["detail_shape"]) == (
        "add_custom", 2, "block_detail", "list")
    assert [(b["block_id"], b["value"]) for b in run(warehouse_db, "insight_op_blocks", source_id=profile)] == [
        (0, 5.25), (1, "NA")]
    assert [r["text"] for r in run(warehouse_db, "insight_advice", source_id=profile, block_type=5)] == [
        "use more cores", "vectorise the tail"]
    assert [r["text"] for r in run(warehouse_db, "insight_advice", source_id=profile, block_type=8, block_id=0)] == [
        "aicore compute usage lower than 20%"]
    assert [(r["view"], r["name"]) for r in run(warehouse_db, "insight_compute_load", source_id=profile)] == [
        ("chart", "Cube All Active"), ("chart", "ALL_ACTIVE"), ("table", "Cube All Active"), ("table", "ALL_ACTIVE")]
    assert [(r["block_id"], r["hit"], r["total_request"]) for r in
            run(warehouse_db, "insight_memory_cores", source_id=profile, block_id=None)] == [(0, 66845, 73821)]
    assert run(warehouse_db, "insight_memory_cores", source_id=profile, block_id=1) == []
    assert [(r["memory_path"], r["request"]) for r in
            run(warehouse_db, "insight_memory_units", source_id=profile, block_id=0)] == [(0, 47847), ("GM_TO_UB", 12)]
    assert [(r["pipe"], r["cycle"]) for r in run(warehouse_db, "insight_pipe_ratios", source_id=profile,
                                                 block_id=0)] == [("Cube", 46050), ("Vector", 6592)]
    cells = run(warehouse_db, "insight_memory_table_cells", source_id=profile, block_id=0)
    assert [(c["table_index"], c["row_index"], c["column_index"], c["value"]) for c in cells][:6] == [
        (0, 0, 0, ""), (0, 0, 1, "hit"), (0, 0, 2, "miss"), (0, 0, 3, "total"), (0, 0, 4, "hit rate(%)"),
        (0, 1, 0, "L2 Cache Write")]
    (block,) = run(warehouse_db, "insight_block_json", source_id=profile, block_type=4)
    assert block["json"].startswith('{"Cores": ["core0.cubecore0"')
    assert run(warehouse_db, "insight_block_json", source_id=profile, block_type=1) == []
