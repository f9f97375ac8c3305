"""parallel_strategy_{rank}.json (MindSpore's auto-parallel strategy of one rank) into ``mindspore_parallel_config``
and ``mindspore_parallel_operator``, and the named queries of MindInsight's parallel strategy view.

The factory's figures are the real files' (MindInsight's tests/utils/resource/parallel_strategy): both ranks
auto_parallel in stage 0 of devices 0 and 1, GetNext-op767 with no strategy and Conv2D-op2 of gen_strategy
((2, 1, 1, 1), (1, 1, 1, 1)) in group 0 on rank 0 and group 1 on rank 1. MindInsight's figure:
tests/st/func/profiler/parallel_strategy_result/parallel_strategy.json, the metadata its test_parallel_strategy.py
reads from those files: {"parallel_type": "auto_parallel", "stage_devices": {"0": [0, 1]}}.
"""

from __future__ import annotations

import json

import pytest

from tests.factories.mindspore_parallel import ParallelStrategyFactory, node, strategy_document, styled
from tests.sources.mindspore_hostile import assert_fails_naming
from warehouse.ingest import ingest_paths
from warehouse import queries

CONV = "Default/conv1-Conv2d/Conv2D-op2"


def run_named_query(conn, name: str, values: dict) -> list[dict]:
    """The rows of the named query, each a dict by column."""
    columns, rows = queries.get(name).run(conn, values)
    return [dict(zip(columns, row)) for row in rows]


def _both_ranks(tmp_path):
    """A profiler folder holding the two ranks' files."""
    folder = tmp_path / "profiler"
    for rank in (0, 1):
        ParallelStrategyFactory(path=folder / f"parallel_strategy_{rank}.json", rank=rank)
    return folder


def test_each_rank_a_config_and_its_operators(warehouse_db, tmp_path):
    folder = _both_ranks(tmp_path)
    results = ingest_paths(warehouse_db, [folder])
    # each file's rows: its config and two operators
    assert [(r.status, r.kind, r.rows) for r in results] == [("ok", "mindspore_parallel_strategy_json", 3)] * 2
    assert warehouse_db.execute(
        "SELECT rank_id, stage_id, parallel_type, stage_devices FROM mindspore_parallel_config ORDER BY rank_id"
    ).fetchall() == [(0, 0, "auto_parallel", "[0, 1]"), (1, 0, "auto_parallel", "[0, 1]")]
    assert warehouse_db.execute(
        "SELECT rank_id, source_row, node_name, full_name, op_type, scope, instance_name, strategy, parallel_group"
        " FROM mindspore_parallel_operator ORDER BY rank_id, source_row").fetchall() == [
        (0, 1, "1", "Default/GetNext-op767", "GetNext", "Default", "", None, None),
        (0, 2, "2", CONV, "Conv2D", "Default/conv1-Conv2d", "", "[[2, 1, 1, 1], [1, 1, 1, 1]]", "0"),
        (1, 1, "1", "Default/GetNext-op767", "GetNext", "Default", "", None, None),
        (1, 2, "2", CONV, "Conv2D", "Default/conv1-Conv2d", "", "[[2, 1, 1, 1], [1, 1, 1, 1]]", "1"),
    ]
    assert warehouse_db.execute("SELECT count(DISTINCT run_id) FROM source").fetchone() == (1,)  # one folder, one run


def test_the_stages_query_gives_mindinsight_metadata(warehouse_db, tmp_path):
    """MindInsight's parallel_strategy.json: auto_parallel, stage 0 of devices [0, 1]."""
    ingest_paths(warehouse_db, [_both_ranks(tmp_path)])
    rows = run_named_query(warehouse_db, "mindspore_parallel_stages", {})
    assert [(r["stage_id"], r["parallel_type"], json.loads(r["stage_devices"]), r["ranks"], r["strategy_operators"])
            for r in rows] == [(0, "auto_parallel", [0, 1], "0,1", 2)]


def test_the_operators_query_gives_each_strategy_and_its_ranks(warehouse_db, tmp_path):
    ingest_paths(warehouse_db, [_both_ranks(tmp_path)])
    rows = run_named_query(warehouse_db, "mindspore_parallel_operators", {"stage_id": 0})
    assert [(r["full_name"], r["strategy"], r["ranks"], r["parallel_groups"]) for r in rows] == [
        ("Default/GetNext-op767", None, "0,1", None),
        (CONV, "[[2, 1, 1, 1], [1, 1, 1, 1]]", "0,1", "0,1"),
    ]


def test_a_node_without_a_full_name_is_skipped_as_mindinsight_does(warehouse_db, tmp_path):
    unnamed = {**node("3", "ReLU", "Default", 3), "fullName": ""}
    ParallelStrategyFactory(path=tmp_path / "parallel_strategy_0.json", rows=[unnamed, node("4", "Add", "Default", 4)])
    ingest_paths(warehouse_db, [tmp_path / "parallel_strategy_0.json"])
    assert warehouse_db.execute("SELECT source_row, node_name FROM mindspore_parallel_operator").fetchall() == [(1, "4")]


@pytest.mark.parametrize(("document", "reason"), [
    ({"config": {}, "graph": []}, "graph: expected an object"),
    ({"config": 7, "graph": {}}, "config: expected an object"),
    ({"config": {"rankId": "x"}, "graph": {}}, "config.rankId: expected an integer, found 'x'"),
    ({"config": {"stageDevices": [{"dim": [{"size": "1.5"}]}]}, "graph": {}},
     "config.stageDevices[0].dim[0].size: expected an integer"),
    ({"config": {}, "graph": {"node": {}}}, "graph.node: expected a list"),
    ({"config": {}, "graph": {"node": [{"name": "1", "fullName": "a", "attribute": [
        {"name": "gen_strategy", "value": {"dtype": "DT_TUPLE", "values": [{"dtype": "DT_INT64", "intVal": "two"}]}}]}]}},
     "graph.node[0].attribute[0].value.values[0].intVal: expected an integer, found 'two'"),
    ({"config": {}, "graph": {"node": [{"name": 1, "fullName": "a"}]}}, "graph.node[0].name: expected a string"),
])
def test_a_hostile_file_fails_naming_the_place(warehouse_db, tmp_path, document, reason):
    written = ParallelStrategyFactory(path=tmp_path / "parallel_strategy_0.json")
    assert_fails_naming(warehouse_db, written.path, json.dumps(document).encode(), reason,
                        "mindspore_parallel_config", "mindspore_parallel_operator")


def test_the_factory_writes_as_mindspore_does():
    # the real parallel_strategy_1.json's config, byte for byte (its lines 1-20 and the graph's opening)
    document = strategy_document(1, 0, "auto_parallel", (0, 1), [])
    assert styled(document) == (
        '{\n  "config" :\n  {\n    "rankId" : 1,\n    "stageId" : 0,\n    "parallelType" : "auto_parallel",\n'
        '    "stageDevices" : [\n      {\n        "dim" : [\n          {\n            "size" : "0"\n          },\n'
        '          {\n            "size" : "1"\n          }\n        ]\n      }\n    ]\n  },\n'
        '  "graph" :\n  {\n    "node" : []\n  }\n}')
