"""Compare mode of MindStudio Insight's Summary and Communication pages: a cluster against a baseline cluster.

Two real clusters are imported over a real WebSocket (the 16-rank cluster of the server's test data, whose
two rank folders hold text exports, and the two db ranks of the pytorch level1 sample); the page then sends
what the frontend sends on "Set as Baseline Data" of a cluster (modules/framework
``src/components/RemoteManager/ProjectContents/ContextMenu.tsx`` and ``src/utils/Compare.tsx``
setBaselineData) and, in compare mode (``isCompare`` true), the cluster module's requests
(modules/cluster ``src/utils/RequestUtils.ts``: queryTopSummary from ``components/summary/BaseInfo.tsx``,
getParallelismPerformanceDataCancelable from ``components/summary/Index.tsx`` with ``baselineStep``,
queryIterations, queryStages, queryCommunication, queryCommunicationOperatorLists and queryCommunicationMatrix from
``components/communication/Filter.tsx``, ``CommunicationAnalysis.tsx`` and ``CommunicationMatrix.tsx``, with
``baselineIterationId`` and ``baselineGroupIdHash``). The answers pair each cluster's figures as the real server
does (``server/src/modules/global/core/BaselineManagerService.cpp``, ``summary/core/SummaryService.cpp``
QueryCompareSummaryBaseInfo and QueryParallelismPerformanceInfo, ``communication/core/ClusterService.cpp``
QueryIterations, MergeGroupInfo,
MergeDurationData, MergeMatrixInfo, MergeOperatorList); each side equals the warehouse's named queries on its own run.
"""

from __future__ import annotations

import re
import shutil

import pytest

from test_insight_cluster import CLUSTER, CLUSTER_PARTS, DURATION_KEYS, named
from test_insight_timeline import imported, opened
from test_insight_ws import empty, root  # noqa: F401 - fixtures

# each test runs `warehouse serve` in a child process and imports two clusters: seconds each
pytestmark = pytest.mark.slow

BASELINE_RUN = "msinsight/pytorch/db/level1"
MATRIX_KEYS = ("transitSize", "transitTime", "bandwidth")


def run_ids(database, *folders) -> list[int]:
    """The run id of each cluster folder (``runs``)."""
    by_root = {row["root"]: row["run_id"] for row in named(database, "runs")}
    return [by_root[str(folder)] for folder in folders]


def durations(database, run_id: int, step_id: int) -> dict[str, dict]:
    """Per rank, the figures communication/duration/list shows for every group and operator of a step."""
    bandwidth = {(row["rank_id"], row["transport_type"]): row["bandwidth_bytes_per_s"] or 0
                 for row in named(database, "communication_bandwidth_summary", run_id=run_id)
                 if row["step_id"] == step_id}
    return {str(row["rank_id"]): {
        "elapseTime": row["elapse_ns"] / 1e6, "transitTime": row["transit_ns"] / 1e6, "waitTime": row["wait_ns"] / 1e6,
        "sdmaBw": bandwidth.get((row["rank_id"], "SDMA"), 0) / 1e9,
        "rdmaBw": bandwidth.get((row["rank_id"], "RDMA"), 0) / 1e9}
        for row in named(database, "communication_time_summary", run_id=run_id) if row["step_id"] == step_id}


def steps_of(database, run_id: int) -> list[str]:
    return list(dict.fromkeys(str(row["step_id"])
                              for row in named(database, "communication_time_summary", run_id=run_id)))


def test_a_cluster_compares_with_a_baseline_cluster(empty, root, realdata):
    mine_run, base_run = root / "cluster", root / "level1"
    for part in CLUSTER_PARTS:
        shutil.copytree(realdata / CLUSTER / part, mine_run / part)
    shutil.copytree(realdata / BASELINE_RUN, base_run)
    with opened(empty, root, mine_run) as (page, _):
        assert imported(page, base_run)["isCluster"] is True
        mine_id, base_id = run_ids(empty, mine_run, base_run)
        mine, base = {"clusterPath": str(mine_run)}, {"clusterPath": str(base_run)}

        # without a baseline, compare mode is refused, named
        refused = page.send("summary", "summary/queryTopData", {"isCompare": True, "stepIdList": [], **mine})
        assert refused["result"] is False and "baseline cluster" in refused["error"]["message"]

        # the project explorer holds the two clusters' nodes, each over its ranks (Project - Cluster - Rank: the
        # context menu offers "Set as Baseline Data" on a cluster, ContextMenu.tsx checkProjectFileIsClusterComparable)
        (project,) = page.body("global", "files/getProjectExplorer", {})["projectDirectoryList"]
        clusters = {node["filePath"]: node for node in project["children"]}
        assert [node["type"] for node in clusters.values()] == ["CLUSTER", "CLUSTER"]
        assert set(clusters) == {str(mine_run), str(base_run)}
        assert len(clusters[str(base_run)]["children"]) == 2 and all(
            rank["type"] == "RANK" and rank["clusterPath"] == "level1" for rank in clusters[str(base_run)]["children"])

        # Set as Baseline Data on the level1 cluster's node: isCluster, no card (ProjectParserDb
        # ParseBaselineClusterInfo)
        node = clusters[str(base_run)]
        answer = page.body("global", "global/setBaseline", {
            "projectName": "p", "fileType": node["type"], "filePath": node["filePath"], "rankId": node["rankId"],
            "baselineClusterPath": node["filePath"], "currentClusterPath": str(mine_run)})
        assert answer == {"rankId": "", "host": "", "cardName": "", "isCluster": True, "errorMessage": "",
                          "dbPath": "", "isFtrace": False}

        # Summary: each cluster's base info, as each answers without compare mode
        top = page.body("summary", "summary/queryTopData", {"isCompare": True, "stepIdList": [], **mine})["baseInfo"]
        alone = {side: page.body("summary", "summary/queryTopData", {"isCompare": False, "stepIdList": [], **asked})
                 ["baseInfo"]["compare"] for side, asked in (("compare", mine), ("baseline", base))}
        assert top == alone
        for side, run_id in (("compare", mine_id), ("baseline", base_id)):
            steps = named(empty, "step_trace_summary", run_id=run_id)
            assert top[side]["stepList"] == list(dict.fromkeys(str(row["step_id"]) for row in steps))
            assert top[side]["rankList"] == [str(rank) for rank in sorted({row["rank_id"] for row in steps})]
        assert (top["compare"]["rankCount"], top["baseline"]["rankCount"]) == (16, 2)
        assert (top["compare"]["filePath"], top["baseline"]["filePath"]) == (str(mine_run), str(base_run))

        # the parallel view (Index.tsx getPerformanceData, with the baseline's step): per rank of either cluster,
        # each side as that cluster answers alone under the open cluster's strategy, its ranks' parallel_rank_time
        strategy = page.body("summary", "summary/query/parallelStrategy", mine)
        strategy.pop("level")
        view = {**strategy, "dimension": "ep-dp-pp-cp-tp", "step": "All"}
        paired = page.body("summary", "parallelism/performance/data", {
            **view, "baselineStep": "All", "isCompare": True, **mine})
        assert paired["advice"] == []
        for side, asked_side, run_id in (("compare", mine, mine_id), ("baseline", base, base_id)):
            alone = page.body("summary", "parallelism/performance/data", {**view, "isCompare": False, **asked_side})
            by_index = {item["index"]: item for item in alone["performance"]}
            assert [item["index"] for item in paired["performance"] if item["indicators"][side]] == sorted(by_index)
            times = {row["rank_id"]: row for row in named(empty, "parallel_rank_time", run_id=run_id)}
            assert sorted(times) == sorted(by_index)
            for item in paired["performance"]:
                if item["index"] in by_index:
                    assert item["indicators"][side] == by_index[item["index"]]["indicators"]["compare"]
                    assert item["indicators"][side]["computing"] == times[item["index"]]["computing_us"]
        for item in paired["performance"]:
            for part in ("indicators", "commTimeIndicator"):
                sides = item[part]
                assert sides["diff"] == {key: round(sides["compare"].get(key, 0) - sides["baseline"].get(key, 0), 3)
                                         for key in sides["compare"].keys() | sides["baseline"].keys()}

        # Communication: the steps of both
        iterations = page.body("communication", "communication/duration/iterations", {"isCompare": True, **mine})
        assert iterations == {"iterationOrRankId": {"compare": steps_of(empty, mine_id),
                                                    "baseline": steps_of(empty, base_id)}}
        mine_step, base_step = iterations["iterationOrRankId"]["compare"][0], iterations["iterationOrRankId"][
            "baseline"][0]
        asked = {"iterationId": mine_step, "baselineIterationId": base_step, "isCompare": True, **mine}

        # the groups of both, each group of each cluster once, under its side
        stages = page.body("communication", "communication/matrix/group", asked)["data"]
        for side, run_id, step in (("compare", mine_id, mine_step), ("baseline", base_id, base_step)):
            expected = {row["group_name"] for row in named(empty, "communication_groups", run_id=run_id,
                                                             step_id=int(step))}
            shown = [stage["groupIdHash"][side] for stage in stages if stage["groupIdHash"][side]]
            assert sorted(shown) == sorted(expected) and expected
        # neither cluster names its process groups, so groups match on ranks and operator types; the (0, 1)
        # groups of the two hold different operators: no stage pairs two groups, each names one of its cluster
        types = {side: {re.sub("[0-9_]", "", row["op_name"])
                        for row in named(empty, "communication_group_operators", run_id=run_id, step_id=int(step))}
                 for side, run_id, step in (("compare", mine_id, mine_step), ("baseline", base_id, base_step))}
        assert types["compare"] != types["baseline"]
        assert all(sum(map(bool, stage["groupIdHash"].values())) == 1 for stage in stages)
        assert [stage["group"] for stage in stages] == sorted(stage["group"] for stage in stages)

        # durations of every group and operator: per rank of either cluster, each side its own run's
        listed = page.body("communication", "communication/duration/list", {
            **asked, "operatorName": "Total Op Info", "pgName": "", "groupIdHash": "", "baselineGroupIdHash": ""})
        sides = {"compare": durations(empty, mine_id, int(mine_step)),
                 "baseline": durations(empty, base_id, int(base_step))}
        assert [item["rankId"] for item in listed["items"]] == sorted(
            sides["compare"].keys() | sides["baseline"].keys())
        # both clusters time the communication of ranks 0 and 1 (the 16-rank one holds only two rank folders)
        assert set(sides["baseline"]) == set(sides["compare"]) == {"0", "1"}
        for item in listed["items"]:
            paired = item["compareData"]
            assert set(paired["compare"]) == set(paired["baseline"]) == set(paired["diff"]) == DURATION_KEYS
            for side, figures in sides.items():
                for key, value in figures.get(item["rankId"], dict.fromkeys(figures["0"], 0)).items():
                    assert paired[side][key] == pytest.approx(value)
            for key in DURATION_KEYS:
                assert paired["diff"][key] == round(paired["compare"][key] - paired["baseline"][key], 4)
        both = [item for item in listed["items"] if item["rankId"] in sides["baseline"]]
        assert len(both) == 2 and all(item["compareData"]["baseline"]["elapseTime"] > 0 for item in both)

        # the matrix: per sending and receiving rank of either cluster, each side its own run's
        matrix = page.body("communication", "communication/matrix/bandwidthInfo", {
            **asked, "stage": "", "operatorName": "Total Op Info", "pgName": "", "groupIdHash": "",
            "baselineGroupIdHash": ""})["matrixList"]
        for side, run_id, step in (("compare", mine_id, mine_step), ("baseline", base_id, base_step)):
            rows = named(empty, "communication_matrix_summary", run_id=run_id, step_id=int(step))
            shown = [(item["srcRank"], item["dstRank"], item["matrixData"][side]["transportType"],
                      *(item["matrixData"][side][key] for key in MATRIX_KEYS))
                     for item in matrix if item["matrixData"][side]["transportType"]]
            assert sorted(shown) == sorted(
                (row["src_rank"], row["dst_rank"], row["transport_type"], row["transit_bytes"] / 1e6,
                 row["transit_ns"] / 1e6, (row["bandwidth_bytes_per_s"] or 0) / 1e9) for row in rows)
            assert shown
        for item in matrix:
            paired = item["matrixData"]
            assert paired["diff"] == {"transportType": "", "opName": "", **{
                key: round(paired["compare"][key] - paired["baseline"][key], 4) for key in MATRIX_KEYS}}
        assert [f"{item['srcRank']}_{item['dstRank']}" for item in matrix] == sorted(
            f"{item['srcRank']}_{item['dstRank']}" for item in matrix)

        # the chart above the durations (CommunicationAnalysis.tsx searchData): each rank's lane of both clusters,
        # in start order, moved together so that every lane ends by the chart's last end
        chart = page.body("communication", "communication/operatorLists", {
            **asked, "operatorName": "Total Op Info", "pgName": "", "groupIdHash": "", "baselineGroupIdHash": ""})
        assert [lanes["rankId"] for lanes in chart["data"]] == ["0", "1"]
        for side, run_id, step in (("compare", mine_id, mine_step), ("baseline", base_id, base_step)):
            times = named(empty, "communication_op_times", run_id=run_id, step_id=int(step))
            for lanes in chart["data"]:
                lane = lanes["lists"][side]
                assert sorted((item["operatorName"], item["duration"]) for item in lane) == sorted(
                    (row["op_name"], row["elapse_ns"]) for row in times if str(row["rank_id"]) == lanes["rankId"])
                assert [item["startTime"] for item in lane] == sorted(item["startTime"] for item in lane) and lane
        ends = [item["startTime"] + item["duration"] for lanes in chart["data"] for lane in lanes["lists"].values()
                for item in lane]
        assert chart["maxTime"] == max(ends)

        # Unset as Baseline Data: compare mode has no baseline any more
        assert page.body("global", "global/cancelBaseline", {"projectName": "p", "filePath": str(base_run)}) == {}
        refused = page.send("communication", "communication/duration/iterations", {"isCompare": True, **mine})
        assert refused["result"] is False and "baseline cluster" in refused["error"]["message"]
        # a baseline named in the request (POST /insight keeps no session) still answers
        named_base = page.body("communication", "communication/duration/iterations", {
            "isCompare": True, "baselineClusterPath": str(base_run), **mine})
        assert named_base == iterations
