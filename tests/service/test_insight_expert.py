"""The Summary page's expert load balancing view (MoE) of MindStudio Insight's frontend, through ``warehouse serve``.

A run is imported over a real WebSocket; the view shows "Profiling Expert Data Parsing..." until
``parse/heatmapCompleted`` (Ascend/msinsight ``modules/cluster/src/connection/handler.ts``
profilingExpertDataParsedHandler) gives ``parseResult``. Then its own requests are sent as
``modules/cluster/src/components/summary/expert-load-balancing/index.tsx`` sends them (every one with
``clusterPath``, ``utils/RequestUtils.ts``): when the profile gave a heat map, initLoad's
``summary/queryModelInfo`` then ``summary/queryExpertHotspot`` with the model info it answered; a
stage changed (handleFormChange) or a Search asks the heat map again; an import of dump files
(handleExpertDataImport) sends ``summary/importExpertData``. Answers are in the shapes of
``server/src/modules/summary/protocol/SummaryProtocolUtil.cpp``; values equal the named queries
``insight_expert_model`` and ``insight_expert_hotspot`` (the real server's walk, ExpertHotspotManager.cpp
CalHeatMap), on real training runs (no MoE layer: the view leaves its Parsing state, empty) and on a
two-rank inference profile written by the factories.
"""

from __future__ import annotations

import shutil

import pytest

from factories.text_exports import write_moe_rank
from factories.trace_json import BASE_US, GROUPED_MATMULS, TraceFileFactory, moe_events
from service.insight import expert
from test_insight_cluster import CLUSTER, CLUSTER_PARTS, named
from test_insight_operator import DB_RUN
from test_insight_timeline import opened
from test_insight_ws import empty, root  # noqa: F401 - fixtures
from warehouse import db, ingest

# each test runs `warehouse serve` in a child process and imports a run: seconds each
pytestmark = pytest.mark.slow

HEATMAP = "parse/heatmapCompleted"
CELL_KEYS = {"rankId", "visits", "layer", "expertId", "expertIndex"}


def heatmap_event(page) -> dict:
    """The one parse/heatmapCompleted of the import (ToEventJson<ParseHeatmapCompletedEvent>), its body."""
    (event,) = [event for event in page.events if event["event"] == HEATMAP]
    assert event["moduleName"] == "timeline" and set(event["body"]) == {"parseResult", "errorMsg"}
    return event["body"]


def heatmaps(page) -> list[dict]:
    """The bodies of every parse/heatmapCompleted the page heard."""
    return [event["body"] for event in page.events if event["event"] == HEATMAP]


def summary_loaded(page, run) -> None:
    """The Summary page's frame, created once the cluster is parsed (after the import's event), asks its
    parallel strategy first (CommunicatorContainer.tsx): the answer is followed by parse/heatmapCompleted
    again, heard before the next answer."""
    assert page.send("summary", "summary/query/parallelStrategy", {"clusterPath": str(run)})["result"] is True
    assert len(heatmaps(page)) == 1


def hotspot(page, run, layers: int, experts: int, stage: str = "prefill", version: str = "profiling",
            dense: list[int] | None = None) -> dict:
    """fetchChatData's request: the form's values, with the cluster's folder (withClusterPath)."""
    return page.send("summary", "summary/queryExpertHotspot", {
        "layerNum": layers, "expertNum": experts, "modelStage": stage, "version": version,
        "denseLayerList": dense or [], "clusterPath": str(run)})


def cells(answer: dict) -> list[dict]:
    assert answer["result"] is True, answer
    found = answer["body"]["hotspotInfos"]
    assert all(set(cell) == CELL_KEYS for cell in found)
    return found


def empty_grid(layers: int, columns: int) -> list[dict]:
    """FillDenseLayerInfo's cells where no data: expertId -1, no visits, rank 0 (no experts per rank known)."""
    return [{"rankId": 0, "visits": 0, "layer": layer, "expertId": -1, "expertIndex": column}
            for layer in range(layers) for column in range(columns)]


def check_without_moe(page, database, run) -> None:
    """A training run: parseResult false as the real server's (no layer API on the CANN lane); the form
    then answers from what it is given."""
    assert named(database, "insight_expert_model", run_id=1) == []
    assert named(database, "insight_expert_hotspot", run_id=1) == []
    assert heatmap_event(page) == {"parseResult": False, "errorMsg": ""}
    cluster = {"clusterPath": str(run)}
    summary_loaded(page, run)
    # GetModelInfo of a cluster without expert data: every figure 0
    assert page.body("summary", "summary/queryModelInfo", cluster) == {
        "expertNum": 0, "layerNum": 0, "denseLayerList": []}
    assert heatmaps(page) == [{"parseResult": False, "errorMsg": ""}] * 2
    # the user fills in the form and searches: the grid of its layers and experts, no load anywhere
    assert cells(hotspot(page, run, 4, 8, dense=[1])) == empty_grid(4, 8)
    # ... which the cluster keeps (UpdateModelInfo): a later getFormConditions reads it back
    assert page.body("summary", "summary/queryModelInfo", cluster) == {
        "expertNum": 8, "layerNum": 4, "denseLayerList": [1]}
    assert cells(hotspot(page, run, 2, 3, stage="decode", version="balanced")) == empty_grid(2, 3)
    # the real server's checks (QueryExpertHotspotParams::CheckParams)
    for layers, experts, dense, reason in ((0, 8, [], "greater than zero"), (4, 8, [4], "out of layer number")):
        refused = hotspot(page, run, layers, experts, dense=dense)
        assert refused["result"] is False and reason in refused["error"]["message"]
    # an import of dump files: refused, naming what the warehouse does not read
    refused = page.send("summary", "summary/importExpertData", {
        "version": "unbalanced", "filePath": str(run / "dump"), **cluster})
    assert refused["result"] is False and "model_gen_config.json" in refused["error"]["message"]


def test_a_two_rank_db_export_leaves_the_parsing_state_empty(empty, root, realdata):
    run = root / "level1"
    shutil.copytree(realdata / DB_RUN, run)
    with opened(empty, root, run) as (page, body):
        assert body["isCluster"] is True
        check_without_moe(page, empty, run)


def test_a_cluster_of_text_exports_leaves_the_parsing_state_empty(empty, root, realdata):
    run = root / "cluster"
    for part in CLUSTER_PARTS:
        shutil.copytree(realdata / CLUSTER / part, run / part)
    with opened(empty, root, run) as (page, _):
        check_without_moe(page, empty, run)


def test_an_inference_profile_draws_each_moe_layers_load_per_rank(empty, root):
    run = root / "moe"
    write_moe_rank(run / "rank0_ascend_pt", 0, [1.5, 2.0, 3.0, 4.0, 5.0, 6.0])
    write_moe_rank(run / "rank1_ascend_pt", 1, [10.0, 20.0, 30.0, 40.0, 50.0, 60.0])
    with opened(empty, root, run) as (page, body):
        assert body["isCluster"] is True
        # the walk: per rank, layer 0 dense, layers 1 and 2 MoE; a layer's load its grouped-matmul kernels
        model = named(empty, "insight_expert_model", run_id=1)
        assert model == [{"rank_id": rank, "has_lanes": 1, "usable": 1, "model_layers": 3, "dense_layers": "0"}
                         for rank in (0, 1)]
        loads = named(empty, "insight_expert_hotspot", run_id=1)
        assert {(row["rank_id"], row["model_stage"], row["layer"]): (row["moe_layer"], row["visits_ns"])
                for row in loads} == {
            (0, "prefill", 1): (0, 3_500), (0, "prefill", 2): (1, 3_000),
            (0, "decode", 1): (0, 9_000), (0, "decode", 2): (1, 6_000),
            (1, "prefill", 1): (0, 30_000), (1, "prefill", 2): (1, 30_000),
            (1, "decode", 1): (0, 90_000), (1, "decode", 2): (1, 60_000)}
        assert heatmap_event(page) == {"parseResult": True, "errorMsg": ""}
        summary_loaded(page, run)

        # initLoad: the model info (the last pass's layers, the ranks as experts), then the heat map with it
        cluster = {"clusterPath": str(run)}
        info = page.body("summary", "summary/queryModelInfo", cluster)
        assert heatmaps(page) == [{"parseResult": True, "errorMsg": ""}] * 2
        assert info == {"expertNum": 2, "layerNum": 3, "denseLayerList": [0]}
        for stage in ("prefill", "decode"):  # the form's stage changed: asked again
            found = cells(hotspot(page, run, info["layerNum"], info["expertNum"], stage, dense=info["denseLayerList"]))
            # one expert per rank: a row of two cells per layer, the dense layer empty
            expected = empty_grid(3, 2)
            for cell in expected:
                cell["rankId"] = cell["expertIndex"]
            for row in loads:
                if row["model_stage"] == stage:
                    expected[row["layer"] * 2 + row["rank_id"]] = {
                        "rankId": row["rank_id"], "visits": row["visits_ns"], "layer": row["layer"],
                        "expertId": row["rank_id"], "expertIndex": row["rank_id"]}
            assert found == expected
        # the experts of profiled data cannot change (UpdateModelInfo), nor the layers drop below its MoE layers
        for layers, experts, reason in ((3, 4, "can't be modify"), (1, 2, "less than the total number")):
            refused = hotspot(page, run, layers, experts)
            assert refused["result"] is False and reason in refused["error"]["message"]
        # a dump version has no data here: the empty grid of the form's shape
        assert cells(hotspot(page, run, 3, 2, version="unbalanced")) == empty_grid(3, 2)


def test_a_walk_that_breaks_gives_nothing_for_its_rank(empty, tmp_path):
    """CalHeatMap gives nothing for a rank where a grouped matmul follows no layer API (here one after the last
    LmHead); ExtractHeatMapFromTraceDb fails the run when a rank has no grouped-matmul kernel."""
    run = tmp_path / "moe"
    write_moe_rank(run / "rank0_ascend_pt", 0, [1.0] * 6)
    write_moe_rank(run / "rank1_ascend_pt", 1, [2.0] * 6)
    stray = [{"ph": "X", "name": "AscendCL@aclnnGroupedMatmulV4", "pid": 1, "tid": 1, "ts": f"{BASE_US + 9_000}.000",
              "dur": 5.0},
             {"ph": "X", "name": GROUPED_MATMULS[0], "pid": 2, "tid": 7, "ts": f"{BASE_US + 9_050}.000", "dur": 7.0}]
    TraceFileFactory(path=run / "rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json",
                     events=moe_events([2.0] * 6) + stray)
    # a third run: its one rank's Ascend Hardware lane has no grouped matmul
    bare = tmp_path / "bare"
    write_moe_rank(bare / "rank0_ascend_pt", 0, [])
    conn = db.connect(empty)
    try:
        assert all(r.status == "ok" for r in ingest.ingest_paths(conn, [run, bare]))
        runs = dict(conn.execute("SELECT path, run_id FROM source WHERE kind = 'trace_json'").fetchall())
    finally:
        conn.close()
    moe_run = runs[str(run / "rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json")]
    bare_run = runs[str(bare / "rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json")]

    def checks(run_id: int) -> list[tuple]:
        found = named(empty, "insight_expert_model", run_id=run_id)
        return [(row["rank_id"], row["has_lanes"], row["usable"]) for row in found]

    assert (checks(moe_run), checks(bare_run)) == ([(0, 1, 1), (1, 1, 0)], [(0, 0, 0)])
    assert {row["rank_id"] for row in named(empty, "insight_expert_hotspot", run_id=moe_run)} == {0}
    conn = db.connect_readonly(empty)
    try:
        broken = expert.profiled(conn, moe_run, [0, 1])
        assert broken.loads is not None and broken.model.layers == 3 and broken.model.ranks == 2
        assert expert.profiled(conn, bare_run, [0]).loads is None
    finally:
        conn.close()
