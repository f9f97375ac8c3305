"""The Summary and Communication pages of MindStudio Insight's frontend on a cluster, through ``warehouse serve``.

A folder of several ranks is imported over a real WebSocket; the events the real server pushes
then (``parse/clusterCompleted``, ``parse/clusterStep2Completed``: ``server/src/modules/full_db/
ProjectParse/ProjectParserDb.cpp`` ParseClusterFiles, ``PaserFactory.cpp`` ParseClusterEndProcess)
must arrive with the cluster's folder, then the cluster module's first requests are sent as its
``modules/cluster/src/utils/RequestUtils.ts`` does (every one with ``clusterPath``):
``summary/queryTopData`` (BaseInfo.tsx), ``communication/duration/iterations``,
``communication/matrix/bandwidthInfo`` and ``communication/duration/list`` for the first step; then,
as its filter (``components/communication/Filter.tsx``) does, ``communication/matrix/group``, a
group's ``communication/duration/operatorNames`` and ``communication/matrix/sortOpNames``, and the
durations and matrix of that group and of one of its operators.
Answers are in the shapes of ``server/src/modules/summary/protocol/SummaryProtocolUtil.cpp`` and
``server/src/modules/communication/protocol/CommunicationProtocolUtil.cpp``; values equal the
warehouse's named queries on the same warehouse and the profiler's own files.
"""

from __future__ import annotations

import csv
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
    rank's parse/operatorCompleted (the Operator module's, test_insight_operator.py), each rank's
    parse/memoryCompleted (the Memory module's, test_insight_memory.py), allPagesSuccess
    (test_insight_timeline.py) and the expert heat map's parse/heatmapCompleted (test_insight_expert.py)."""
    assert [(event["moduleName"], event["event"]) for event in events] == [
        ("timeline", "parse/success"), ("timeline", "parse/success"), ("timeline", "parse/clusterCompleted"),
        ("timeline", "parse/clusterStep2Completed"), ("operator", "parse/operatorCompleted"),
        ("operator", "parse/operatorCompleted"), ("timeline", "parse/memoryCompleted"),
        ("timeline", "parse/memoryCompleted"), ("memory", "allPagesSuccess"), ("timeline", "parse/heatmapCompleted")]
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
        # so the page asks the groups of step "", which the real server allows (MatrixGroupParam::CheckParams)
        assert page.body("communication", "communication/matrix/group", {
            "iterationId": "", "baselineIterationId": "", "isCompare": False, "clusterPath": str(run)}) == {"data": []}


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

        check_group_and_operator(page, empty, run, asked)
        check_rank_statistics(page, empty, run)

        # a folder that is no cluster: refused, named
        refused = page.send("summary", "summary/queryTopData", {"clusterPath": str(root / "nowhere")})
        assert refused["result"] is False and str(root / "nowhere") in refused["error"]["message"]


#: rank 0's communication.json, step 2: the p2p group's hash (after '@') and one of its operators
P2P_GROUP, SEND = "13337953553061386822", "hcom_send__822_0"
#: the collective group of ranks 0 and 1 (its 20 operators on both ranks)
COLLECTIVE_GROUP = "9350434047717501483"


def group_times(run, rank: int) -> dict[str, float]:
    """The collective group's operators of step 2 in ``rank``'s communication.json: name -> Elapse Time(ms)."""
    written = json.loads((run / f"test_rank_{rank}/ASCEND_PROFILER_OUTPUT/communication.json").read_text())
    return {key.split("@")[0]: value["Communication Time Info"]["Elapse Time(ms)"]
            for key, value in written["step2"]["collective"].items() if key.endswith(f"@{COLLECTIVE_GROUP}")}


def check_slow_ranks(page, database, run, asked: dict) -> None:
    """The Potential Slow Rank List (CommunicationAnalysis.tsx getSlowRankList): in the collective group rank 1
    spent 33.4 ms communicating, rank 0 28.1 ms: rank 1 waited, rank 0 (15.9 % short) arrived late."""
    in_group = {**asked, "stage": "(0, 1)", "groupIdHash": COLLECTIVE_GROUP, "pgName": ""}
    listed = page.body("communication", "communication/duration/slow-rank/list", in_group)
    waited, late = group_times(run, 1), group_times(run, 0)
    assert listed["hasAdvice"] is True and listed["fastRankId"] == "1"
    assert listed["fastTotalElapseTime"] == pytest.approx(sum(waited.values()) * 1000, abs=0.01)
    (slow,) = listed["data"]
    assert slow["rankId"] == "0"
    assert slow["totalElapseTime"] == pytest.approx(sum(late.values()) * 1000, abs=0.01)
    assert slow["totalDiffTime"] == pytest.approx((sum(waited.values()) - sum(late.values())) * 1000, abs=0.01)
    lost = {name: (waited[name] - late[name]) * 1000 for name in waited}
    assert [op["name"] for op in slow["opList"]] == sorted(lost, key=lost.get, reverse=True)
    assert [op["diffTime"] for op in slow["opList"]] == pytest.approx(sorted(lost.values(), reverse=True), abs=0.002)
    rows = named(database, "communication_group_slow_ranks", run_id=1, step_id=2, group_name=COLLECTIVE_GROUP)
    assert [(row["rank_id"], row["slow"]) for row in rows] == [(0, 1), (1, 0)]
    # no advice for one operator, nor for the p2p group (its send and receive need not wait alike)
    for other in ({**in_group, "operatorName": "hcom_allReduce__483_2"}, {**in_group, "groupIdHash": P2P_GROUP}):
        assert page.body("communication", "communication/duration/slow-rank/list", other) == {
            "hasAdvice": False, "fastRankId": "", "fastTotalElapseTime": 0, "data": []}


def check_group_and_operator(page, database, run, asked: dict) -> None:
    """The filter's requests: the step's groups, one group's operators, its durations and matrix, one operator's."""
    groups = page.body("communication", "communication/matrix/group", {
        "iterationId": "2", "baselineIterationId": "", "isCompare": False, "clusterPath": str(run)})["data"]
    listed = named(database, "communication_groups", run_id=1, step_id=2)
    assert [group["groupIdHash"] for group in groups] == [
        {"compare": row["group_name"], "baseline": ""} for row in listed]
    # six groups name operators in step 2 (communication.json's '@' suffixes of ranks 0 and 1)
    assert len(groups) == 6
    # no step asked: every step's groups, each once (the run's only step here)
    unstepped = page.body("communication", "communication/matrix/group", {
        "iterationId": "", "baselineIterationId": "", "isCompare": False, "clusterPath": str(run)})["data"]
    assert unstepped == groups
    p2p = next(group for group in groups if group["groupIdHash"]["compare"] == P2P_GROUP)
    assert p2p == {"group": "(0, 1)", "parallelStrategy": "", "type": "",
                   "groupIdHash": {"compare": P2P_GROUP, "baseline": ""}}
    in_group = {**asked, "stage": p2p["group"], "groupIdHash": P2P_GROUP}
    operators = named(database, "communication_group_operators", run_id=1, step_id=2, group_name=P2P_GROUP)
    timed = page.body("communication", "communication/duration/operatorNames", in_group)["operatorName"]
    assert timed == ["Total Op Info", *(row["op_name"] for row in operators if row["timed_ranks"])]
    assert SEND in timed and "hcom_receive__822_0" not in timed  # the receive is only in the matrix
    in_matrix = page.body("communication", "communication/matrix/sortOpNames", in_group)["operatorName"]
    assert in_matrix == ["Total Op Info", *(row["op_name"] for row in operators if row["matrix_entries"])]
    assert "hcom_receive__822_0" in in_matrix

    group_durations = page.body("communication", "communication/duration/list", in_group)["items"]
    summed = named(database, "communication_time_summary", run_id=1, group_name=P2P_GROUP)
    assert [item["compareData"]["compare"]["elapseTime"] for item in group_durations] == [
        row["elapse_ns"] / 1e6 for row in summed if row["step_id"] == 2]
    # one operator: the profiler's own figure, rank 0's communication.json
    written = json.loads((run / "test_rank_0/ASCEND_PROFILER_OUTPUT/communication.json").read_text())
    send = written["step2"]["p2p"][f"{SEND}@{P2P_GROUP}"]
    one = page.body("communication", "communication/duration/list", {**in_group, "operatorName": SEND})["items"]
    assert [item["rankId"] for item in one] == ["0", "1"]
    compare = one[0]["compareData"]["compare"]
    assert compare["elapseTime"] == pytest.approx(send["Communication Time Info"]["Elapse Time(ms)"], abs=0.5e-6)
    assert compare["rdmaBw"] == pytest.approx(send["Communication Bandwidth Info"]["RDMA"]["Bandwidth(GB/s)"],
                                              rel=1e-3)
    pairs = page.body("communication", "communication/matrix/bandwidthInfo", {
        **in_group, "operatorName": SEND, "isCompare": False})["matrixList"]
    expected = named(database, "communication_matrix_summary", run_id=1, step_id=2, group_name=P2P_GROUP,
                     op_name=SEND)
    assert [(pair["srcRank"], pair["dstRank"], pair["matrixData"]["compare"]["opName"]) for pair in pairs] == [
        (row["src_rank"], row["dst_rank"], SEND) for row in expected] and pairs
    check_rank_operators(page, database, in_group, send)
    check_operator_lanes(page, database, in_group)
    check_slow_ranks(page, database, run, asked)


def check_operator_lanes(page, database, in_group: dict) -> None:
    """The chart above the durations (CommunicationAnalysis.tsx searchData: operatorLists before the list)."""
    chart = page.body("communication", "communication/operatorLists", in_group)
    times = named(database, "communication_op_times", run_id=1, step_id=2, group_name=P2P_GROUP)
    assert [lanes["rankId"] for lanes in chart["data"]] == ["0", "1"]
    for lanes in chart["data"]:
        mine = [row for row in times if str(row["rank_id"]) == lanes["rankId"]]
        assert [(item["operatorName"], item["duration"]) for item in lanes["lists"]["compare"]] == [
            (row["op_name"], row["elapse_ns"]) for row in sorted(mine, key=lambda row: row["ts"])]
        assert lanes["lists"]["baseline"] == [] and lanes["dbPath"]
    ends = [item["startTime"] + item["duration"] for lanes in chart["data"] for item in lanes["lists"]["compare"]]
    assert chart["maxTime"] == max(ends) and chart["minTime"] < chart["maxTime"]
    # from the trace's start (the ranks have no timeline here: the run's start), small enough for the page's
    # numbers (JavaScript's exact integers end at 2**53)
    (run,) = named(database, "runs")
    first = min(row["ts"] for row in times)
    assert chart["data"][0]["lists"]["compare"][0]["startTime"] == first - run["start_ns"] < 2 ** 53
    # one operator: its lane on each rank, moved so that it ends with the latest
    one = page.body("communication", "communication/operatorLists", {**in_group, "operatorName": SEND})
    (first,), (second,) = (lanes["lists"]["compare"] for lanes in one["data"])
    assert first["operatorName"] == second["operatorName"] == SEND
    assert first["startTime"] + first["duration"] == second["startTime"] + second["duration"] == one["maxTime"]


def check_rank_operators(page, database, in_group: dict, send: dict) -> None:
    """A rank's operators (Opertators.tsx, BandwidthAnalysis.tsx): the table's page, the bandwidth table and
    the packet chart of one operator, against rank 0's communication.json."""
    rank0 = {**in_group, "rankId": 0}
    details = page.body("communication", "communication/operatorDetails", {
        **rank0, "pageSize": 2, "currentPage": 1, "orderBy": "", "order": ""})
    listed = named(database, "communication_op_times", run_id=1, rank_id=0, step_id=2, group_name=P2P_GROUP)
    assert (details["count"], details["currentPage"], details["pageSize"]) == (len(listed), 1, 2)
    # longest first without orderBy (ExecuteQueryAllOperators' default): allReduce__822_2's 11.04 ms
    longest = max(listed, key=lambda row: row["elapse_ns"])
    assert [item["operatorName"] for item in details["allOperators"]][0] == longest["op_name"]
    assert details["allOperators"][0]["elapseTime"] == round(longest["elapse_ns"] / 1e6, 4) == 11.0365
    by_start = page.body("communication", "communication/operatorDetails", {
        **rank0, "pageSize": 10, "currentPage": 1, "orderBy": "startTime", "order": "ascend"})["allOperators"]
    assert [item["operatorName"] for item in by_start] == [row["op_name"] for row in listed]
    first = by_start[0]
    assert first["operatorName"] == SEND and first["rdmaBw"] == send["Communication Bandwidth Info"]["RDMA"][
        "Bandwidth(GB/s)"]
    assert first["transitTime"] == round(send["Communication Time Info"]["Transit Time(ms)"], 4)

    one = {**rank0, "operatorName": SEND}
    transports = {item["transportType"]: item for item in page.body("communication", "communication/bandwidth",
                                                                      one)["items"]}
    rdma = send["Communication Bandwidth Info"]["RDMA"]
    assert set(transports) == set(send["Communication Bandwidth Info"])
    # rounded to 4 decimals as the real server does (ROUND(transit_size, 4))
    assert transports["RDMA"] == {"transportType": "RDMA", "transitSize": round(rdma["Transit Size(MB)"], 4),
                                  "transitTime": round(rdma["Transit Time(ms)"], 4),
                                  "bandwidth": rdma["Bandwidth(GB/s)"], "largePacketRatio": rdma["Large Packet Ratio"]}
    packets = page.body("communication", "communication/distribution", {**one, "transportType": "RDMA"})
    assert json.loads(packets["distributionData"]) == rdma["Size Distribution"]
    assert page.body("communication", "communication/distribution", {**one, "transportType": "PCIE"}) == {
        "distributionData": ""}
    # every operator of the group: the sizes of each added up
    total = page.body("communication", "communication/bandwidth", rank0)["items"]
    summed = sum(row["transit_bytes"] for row in named(database, "communication_op_transports", run_id=1, rank_id=0,
                                                        step_id=2, group_name=P2P_GROUP)
                 if row["transport_type"] == "RDMA")
    assert next(item for item in total if item["transportType"] == "RDMA")["transitSize"] == round(summed / 1e6, 4)


def check_rank_statistics(page, database, run) -> None:
    """A rank's compute and communication tables (StatisticsTable.tsx querySummaryStatistics), against rank 0's
    kernel_details.csv (Accelerator Core, Duration(us)) and step_trace_time.csv (Overlapped, Not Overlapped)."""
    asked = {"rankId": "0", "dbPath": "", "stepId": "2", "clusterPath": str(run)}
    compute = page.body("summary", "summary/statistic", {**asked, "timeFlag": "compute"})["summaryStatisticsItemList"]
    with open(run / "test_rank_0/ASCEND_PROFILER_OUTPUT/kernel_details.csv", newline="") as file:
        per_core: dict[str, float] = {}
        for row in csv.DictReader(file):
            per_core[row["Accelerator Core"]] = per_core.get(row["Accelerator Core"], 0) + float(row["Duration(us)"])
    listed = {item["acceleratorCore"]: item for item in compute}
    # the cores the real server lists (GetComputeStatisticsSQL): DSA_SQE and HCCL kernels are not compute
    assert set(listed) == {"AI_CORE", "AI_CPU", "AI_VECTOR_CORE", "MIX_AIC", "MIX_AIV"} < set(per_core)
    for core, item in listed.items():
        assert item["duration"] == pytest.approx(per_core[core], abs=1.0) and item["overlapType"] == ""
    assert sum(item["utilization"] for item in compute) == pytest.approx(1.0)
    assert listed["MIX_AIC"]["utilization"] == max(item["utilization"] for item in compute)
    communication = page.body("summary", "summary/statistic", {**asked, "timeFlag": "communication"})
    (step,) = named(database, "step_trace_summary", run_id=1, rank_id=0)
    assert communication["summaryStatisticsItemList"] == [
        {"acceleratorCore": "", "overlapType": "Communication(Overlapped)", "duration": step["overlapped_ns"] / 1e3,
         "utilization": 0},
        {"acceleratorCore": "", "overlapType": "Communication(Not Overlapped)",
         "duration": step["communication_not_overlapped_ns"] / 1e3, "utilization": 0}]
    with open(run / "test_rank_0/ASCEND_PROFILER_OUTPUT/step_trace_time.csv", newline="") as file:
        (written,) = csv.DictReader(file)
    assert step["communication_not_overlapped_ns"] / 1e3 == pytest.approx(
        float(written["Communication(Not Overlapped)"]), abs=0.001)
