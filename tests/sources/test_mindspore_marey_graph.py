"""MindInsight's marey graph of a step (ascend_marey_timeline_{step}.json) into ``mindspore_marey_span`` and
``mindspore_marey_stage``, the operators' scopes beside it (scope_map_{step}.json) into ``mindspore_scope_map``,
and the queries mindspore_marey_spans and mindspore_marey_stages.

The factories' spans are the real step 1's (MindInsight's tests/utils/resource/marey_graph, the answer of
tests/st/func/profiler/test_timeline_analyser.py's test_get_marey_timeline): its stage_data gives stage 0's
Receive-op1893 st_min 183,917,308.62998962, st_max 183,917,312.96998262, st_avg 183,917,310.79998612, ed_max
183,917,312.9799826 over n = 2 devices, and stage 1's Mul-op6576 one device. On the real file the stages query
gives all 6,697 of its stage_data entries (to 1e-6 us), and its 4 devices hold 2,934, 2,934, 3,754 and 3,759 spans.
"""

from __future__ import annotations

import json

import pytest

from tests.factories.mindspore_parallel import MareyTimelineFactory, ScopeMapFactory, span, stage_data
from tests.sources.mindspore_hostile import assert_fails_naming
from tests.sources.test_mindspore_parallel_strategy import run_named_query
from warehouse.ingest import ingest_paths

RECEIVE_SCOPE = "/Default/network-_TrainPipelineAccuStepCell/gradSend"


def _step_one(tmp_path):
    """A profiler folder holding the marey graph of step 1 and its scope map."""
    folder = tmp_path / "profiler"
    MareyTimelineFactory(path=folder / "ascend_marey_timeline_1.json")
    ScopeMapFactory(path=folder / "scope_map_1.json")
    return folder


def test_each_span_and_stage_device_a_row(warehouse_db, tmp_path):
    results = ingest_paths(warehouse_db, [_step_one(tmp_path)])
    # spans 5 and stage devices 4; scope entries 3
    assert sorted((r.status, r.kind, r.rows) for r in results) == [
        ("ok", "mindspore_marey_timeline_json", 9), ("ok", "mindspore_scope_map_json", 3)]
    assert warehouse_db.execute(
        "SELECT step, rank_id, op_name, start_us, end_us, dur_us FROM mindspore_marey_span ORDER BY source_row"
    ).fetchall()[:2] == [(1, 0, "Receive-op1893", 183917308.62998962, 183917308.62998962, 0.0),
                         (1, 0, "Conv2D-op1547", 183904930.10997772, 183904971.51997772, 41.410000000000004)]
    stages = "SELECT stage_id, rank_id FROM mindspore_marey_stage ORDER BY source_row"
    assert warehouse_db.execute(stages).fetchall() == [(0, 0), (0, 1), (1, 2), (1, 3)]
    detail = json.loads(warehouse_db.execute("SELECT detail FROM source WHERE kind = 'mindspore_marey_timeline_json'"
                                             ).fetchone()[0])
    assert (detail["step"], detail["minT"], detail["maxT"]) == (1, 183683446.0299611, 183917312.9799826)
    assert warehouse_db.execute("SELECT count(DISTINCT run_id) FROM source").fetchone() == (1,)  # one folder, one run


def test_the_stages_query_gives_mindinsight_stage_data(warehouse_db, tmp_path):
    ingest_paths(warehouse_db, [_step_one(tmp_path)])
    answer = run_named_query(warehouse_db, "mindspore_marey_stages", {"step": 1})
    rows = {(r["stage_id"], r["op_name"]): r for r in answer}
    receive = rows[(0, "Receive-op1893")]
    assert (receive["st_min"], receive["st_max"], receive["ed_max"], receive["n"]) == (
        183917308.62998962, 183917312.96998262, 183917312.9799826, 2)
    assert receive["st_avg"] == pytest.approx(183917310.79998612, abs=1e-6)
    assert (rows[(1, "Mul-op6576")]["n"], len(rows)) == (1, 3)
    written = MareyTimelineFactory.build()
    expected = stage_data(written.rows, {"stage0": ["device0", "device1"], "stage1": ["device2", "device3"]})
    for (stage, name), row in rows.items():
        figures = expected[f"stage{stage}"]["data"][name]
        assert all(row[key] == pytest.approx(figures[key], abs=1e-6) for key in figures), name


def test_the_spans_query_joins_each_span_to_its_scope(warehouse_db, tmp_path):
    ingest_paths(warehouse_db, [_step_one(tmp_path)])
    rows = run_named_query(warehouse_db, "mindspore_marey_spans", {"step": 1})
    assert [(r["stage_id"], r["rank_id"], r["op_name"], r["scope"]) for r in rows] == [
        (0, 0, "Conv2D-op1547", ScopeMapFactory.build().rows["Conv2D-op1547"]),
        (0, 0, "Receive-op1893", RECEIVE_SCOPE),
        (0, 1, "Conv2D-op1547", ScopeMapFactory.build().rows["Conv2D-op1547"]),
        (0, 1, "Receive-op1893", RECEIVE_SCOPE),
        (1, 3, "Mul-op6576", None),  # the real scope map has none for it
    ]


@pytest.mark.parametrize(("document", "reason"), [
    ({"maps": []}, "maps: expected an object"),
    ({"maps": {"gpu0": {}}}, "maps.gpu0: expected a name like"),
    ({"maps": {"device0": {"Mul-op1": {"st": "1", "ed": 2, "dur": 1}}}}, "maps.device0.Mul-op1.st: expected a number"),
    ({"maps": {"device0": {"Mul-op1": 7}}}, "maps.device0.Mul-op1: expected an object"),
    ({"maps": {}, "stage_data": {"stage0": {"devices": "device0"}}}, "stage_data.stage0.devices: expected a list"),
    ({"maps": {}, "minT": "x"}, "minT: expected a number"),
])
def test_a_hostile_marey_graph_fails_naming_the_place(warehouse_db, tmp_path, document, reason):
    written = MareyTimelineFactory(path=tmp_path / "ascend_marey_timeline_1.json")
    assert_fails_naming(warehouse_db, written.path, json.dumps(document).encode(), reason,
                        "mindspore_marey_span", "mindspore_marey_stage")


@pytest.mark.parametrize(("document", "reason"), [
    ({"scope_map": []}, "scope_map: expected an object"),
    ({"scope_map": {"Mul-op1": 3}}, "scope_map.Mul-op1: expected a scope name, found '3'"),
])
def test_a_hostile_scope_map_fails_naming_the_entry(warehouse_db, tmp_path, document, reason):
    written = ScopeMapFactory(path=tmp_path / "scope_map_1.json")
    assert_fails_naming(warehouse_db, written.path, json.dumps(document).encode(), reason, "mindspore_scope_map")


def test_the_factories_write_as_mindinsight_does():
    # the real files' first bytes: json.dumps of maps, then minT, maxT and stage_data; of scope_map
    maps = {"device0": {"Receive-op1893": span(183917308.62998962, 183917308.62998962, 0.0)}}
    written = MareyTimelineFactory.build(rows=maps, stages={"stage0": ["device0"]}).data
    assert written.startswith(b'{"maps": {"device0": {"Receive-op1893": {"st": 183917308.62998962, '
                              b'"ed": 183917308.62998962, "dur": 0.0}}}, "minT": 183917308.62998962, ')
    assert written.endswith(b'"n": 1}}, "devices": ["device0"]}}}')
    assert ScopeMapFactory.build(rows={"StreamRecv-op10594": ""}).data == b'{"scope_map": {"StreamRecv-op10594": ""}}'
