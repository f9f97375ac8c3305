"""The Summary and Communication pages of MindStudio Insight's frontend on a cluster, through ``warehouse serve``.

A folder of several ranks is imported over a real WebSocket; the events the real server pushes
then (``parse/clusterCompleted``, ``parse/clusterStep2Completed``: ``server/src/modules/full_db/
ProjectParse/ProjectParserDb.cpp`` ParseClusterFiles, ``PaserFactory.cpp`` ParseClusterEndProcess)
must arrive with the cluster's folder, then the cluster module's first requests are sent as its
``modules/cluster/src/utils/RequestUtils.ts`` does (every one with ``clusterPath``):
``summary/queryTopData`` (BaseInfo.tsx), ``communication/duration/iterations``,
``communication/matrix/bandwidthInfo`` and ``communication/duration/list`` for the first step.
Answers are in the shapes of ``server/src/modules/summary/protocol/SummaryProtocolUtil.cpp`` and
``server/src/modules/communication/protocol/CommunicationProtocolUtil.cpp``; values equal the
warehouse's named queries on the same warehouse and the profiler's own files.
"""

from __future__ import annotations

import json
import shutil

import pytest

from test_insight_timeline import DB_RUN, TEXT_RUN, opened
from test_insight_ws import empty, root  # noqa: F401 - fixtures
from warehouse import db, queries

# each test runs `warehouse serve` in a child process and imports real samples: seconds each
pytestmark = pytest.mark.slow

#: two ranks of text exports with their communication files, and the cluster's own analysis output
CLUSTER = "msinsight/server_test_data"
CLUSTER_PARTS = ("test_rank_0", "test_rank_1", "cluster_analysis_output")
BASE_INFO_KEYS = {"stepList", "rankList", "rankCount", "dataSize", "collectStartTime", "filePath", "collectDuration",
                  "stepNum"}
DURATION_KEYS = {"startTime", "elapseTime", "transitTime", "synchronizationTime", "waitTime", "idleTime",
                 "synchronizationTimeRatio", "waitTimeRatio", "sdmaBw", "rdmaBw"}


def named(database, query: str, **params) -> list[dict]:
    conn = db.connect_readonly(database)
    try:
        columns, found = queries.get(query).run(conn, params)
        return [dict(zip(columns, row)) for row in found]
    finally:
        conn.close()


def check_cluster_events(events: list[dict], run) -> None:
    """The cluster's two events follow the ranks' parse/success, naming the folder imported; then each
    rank's parse/operatorCompleted (the Operator module's, test_insight_operator.py) and each rank's
    parse/memoryCompleted (the Memory module's, test_insight_memory.py)."""
    assert [(event["moduleName"], event["event"]) for event in events] == [
        ("timeline", "parse/success"), ("timeline", "parse/success"), ("timeline", "parse/clusterCompleted"),
        ("timeline", "parse/clusterStep2Completed"), ("operator", "parse/operatorCompleted"),
        ("operator", "parse/operatorCompleted"), ("timeline", "parse/memoryCompleted"),
        ("timeline", "parse/memoryCompleted")]
    assert events[2]["body"] == {"parseResult": "ok", "isAllPageParsed": False, "isShowCluster": True,
                                 "clusterPath": str(run)}
    assert events[3]["body"] == {"parseResult": "ok", "isAllPageParsed": False, "clusterPath": str(run)}


def check_base_info(page, database, run) -> dict:
    """summary/queryTopData against step_trace_summary and runs."""
    body = page.body("summary", "summary/queryTopData", {"isCompare": False, "stepIdList": [],
                                                          "clusterPath": str(run)})
    info = body["baseInfo"]["compare"]
    assert set(info) == BASE_INFO_KEYS and set(body["baseInfo"]["baseline"]) == BASE_INFO_KEYS
    steps = named(database, "step_trace_summary", run_id=1)
    assert info["stepList"] == list(dict.fromkeys(str(row["step_id"]) for row in steps))
    assert info["rankList"] == [str(rank) for rank in sorted({row["rank_id"] for row in steps})]
    assert (info["rankCount"], info["stepNum"], info["filePath"]) == (
        len(info["rankList"]), len(info["stepList"]), str(run))
    totals: dict[int, int] = {}
    for row in steps:
        totals[row["rank_id"]] = totals.get(row["rank_id"], 0) + row["step_total_ns"]
    assert info["collectDuration"] == max(totals.values()) // 1000
    assert info["collectStartTime"] == named(database, "runs")[0]["start_ns"] // 1_000_000
    assert info["dataSize"] == pytest.approx(database.stat().st_size / 1024 / 1024)
    return info


@pytest.mark.parametrize("sample", (DB_RUN, TEXT_RUN))
def test_a_two_rank_folder_shows_its_summary(empty, root, realdata, sample):
    run = root / "level0"
    shutil.copytree(realdata / sample, run)
    with opened(empty, root, run) as (page, body):
        assert body["isCluster"] is True
        check_cluster_events(page.events, run)
        info = check_base_info(page, empty, run)
        # both ranks profiled step 50 (analysis.db's STEP_TRACE_TIME, step_trace_time.csv's Step)
        assert (info["stepList"], info["rankList"]) == (["50"], ["0", "1"])
        # level0 holds no communication summary: no step to show in Communication
        assert page.body("communication", "communication/duration/iterations", {
            "isCompare": False, "clusterPath": str(run)}) == {"iterationOrRankId": {"compare": [], "baseline": []}}


def test_a_cluster_shows_its_communication(empty, root, realdata):
    run = root / "cluster"
    for part in CLUSTER_PARTS:
        shutil.copytree(realdata / CLUSTER / part, run / part)
    with opened(empty, root, run) as (page, body):
        check_cluster_events(page.events, run)
        info = check_base_info(page, empty, run)
        # step_trace_time.csv gives step 2 for ranks 0 and 1, cluster_step_trace_time.csv for 16 ranks
        assert (info["stepList"], info["rankCount"]) == (["2"], 16)
        cluster = {"clusterPath": str(run)}
        steps = page.body("communication", "communication/duration/iterations", {"isCompare": False, **cluster})
        assert steps == {"iterationOrRankId": {"compare": ["2"], "baseline": []}}
        asked = {"iterationId": "2", "operatorName": "Total Op Info", "pgName": "", "groupIdHash": "",
                 "baselineGroupIdHash": "", **cluster}

        durations = page.body("communication", "communication/duration/list", asked)
        summed = named(empty, "communication_time_summary", run_id=1)
        bandwidth = {(row["rank_id"], row["transport_type"]): row["bandwidth_bytes_per_s"]
                     for row in named(empty, "communication_bandwidth_summary", run_id=1)}
        assert [item["rankId"] for item in durations["items"]] == [str(row["rank_id"]) for row in summed]
        assert durations["advice"] == []
        for item, row in zip(durations["items"], summed):
            compare = item["compareData"]["compare"]
            assert set(compare) == DURATION_KEYS and set(item["compareData"]) == {"compare", "baseline", "diff"}
            assert (compare["elapseTime"], compare["transitTime"], compare["waitTime"], compare["idleTime"],
                    compare["synchronizationTime"], compare["waitTimeRatio"]) == (
                row["elapse_ns"] / 1e6, row["transit_ns"] / 1e6, row["wait_ns"] / 1e6, row["idle_ns"] / 1e6,
                row["synchronization_ns"] / 1e6, row["wait_ratio"])
            assert (compare["sdmaBw"], compare["rdmaBw"]) == (
                bandwidth[row["rank_id"], "SDMA"] / 1e9, bandwidth[row["rank_id"], "RDMA"] / 1e9)
            assert item["dbPath"].startswith(str(run / f"test_rank_{row['rank_id']}"))
        # the profiler's own figure: rank 0's communication.json, its groups' 'Total Op Info' of step 2
        written = json.loads((run / "test_rank_0/ASCEND_PROFILER_OUTPUT/communication.json").read_text())["step2"]
        total_ms = sum(group["Total Op Info"]["Communication Time Info"]["Elapse Time(ms)"]
                       for group in written.values())
        # the warehouse keeps each operator's time in whole ns: 28 operators, each within half a ns
        assert durations["items"][0]["compareData"]["compare"]["elapseTime"] == pytest.approx(total_ms, abs=28 * 0.5e-6)

        found = page.body("communication", "communication/matrix/bandwidthInfo", {
            "stage": "", "isCompare": False, **asked})["matrixList"]
        pairs = named(empty, "communication_matrix_summary", run_id=1, step_id=2)
        assert len(found) == len(pairs) > 0
        for item, row in zip(found, pairs):
            compare = item["matrixData"]["compare"]
            assert (item["srcRank"], item["dstRank"], compare["transportType"], compare["opName"]) == (
                row["src_rank"], row["dst_rank"], row["transport_type"], "Total Op Info")
            assert (compare["transitSize"], compare["transitTime"], compare["bandwidth"]) == (
                row["transit_bytes"] / 1e6, row["transit_ns"] / 1e6, (row["bandwidth_bytes_per_s"] or 0) / 1e9)

        # a folder that is no cluster, an operator the warehouse does not keep apart: refused, named
        refused = page.send("summary", "summary/queryTopData", {"clusterPath": str(root / "nowhere")})
        assert refused["result"] is False and str(root / "nowhere") in refused["error"]["message"]
        refused = page.send("communication", "communication/duration/list", {**asked, "operatorName": "hcom_send"})
        assert refused["result"] is False and "Total Op Info" in refused["error"]["message"]
