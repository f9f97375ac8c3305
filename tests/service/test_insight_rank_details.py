"""The Summary page's rank details of MindStudio Insight's frontend on a cluster, through ``warehouse serve``.

The real cluster sample (two ranks' text exports and the cluster's analysis output) is imported over a real WebSocket; then, as the page's tables
(modules/cluster ``components/summary/StatisticsTable.tsx`` DetailTable, searchData) do, a rank's
kernels of one accelerator core (``summary/queryComputeDetail``) and its communication operators
(``summary/queryCommunicationDetail``) are asked a page at a time, unordered and by a column.
Answers are in the shapes of ``server/src/modules/summary/protocol/SummaryProtocolUtil.cpp``; rows
equal the named query ``insight_operators`` on the same warehouse.
"""

from __future__ import annotations

import shutil

import pytest

from test_insight_cluster import CLUSTER, CLUSTER_PARTS, named
from test_insight_timeline import opened
from test_insight_ws import empty, root  # noqa: F401 - fixtures

# each test runs `warehouse serve` in a child process and imports a real sample: seconds each
pytestmark = pytest.mark.slow

COMPUTE_KEYS = {"name", "type", "startTime", "duration", "waitTime", "blockNum", "inputShapes", "inputDataTypes",
                "inputFormats", "outputShapes", "outputDataTypes", "outputFormats"}
COMMUNICATION_KEYS = {"name", "type", "startTime", "duration", "waitTime"}


def operators(database, rank: int, communication: bool, core=None) -> list[dict]:
    """The rank's insight_operators rows, in start order."""
    found = named(database, "insight_operators", run_id=1, rank_id=rank, communication=communication, top_k=-1,
                  op_type=None, op_name=None, input_shapes=None, acc_core=core)
    return sorted(found, key=lambda row: (row["ts"], row["name"]))


def check_starts(listed: list[dict], rows: list[dict]) -> None:
    """Starts in ms from the rank's time zero (its timeline's first slice, else 0): their gaps are the
    operators' (to the 0.1 us written, and a double's precision over absolute times)."""
    starts = [float(item["startTime"]) for item in listed]
    assert starts[0] >= 0
    for item, row in zip(listed[1:], rows[1:]):
        assert float(item["startTime"]) - starts[0] == pytest.approx((row["ts"] - rows[0]["ts"]) / 1e6, abs=1e-3)


def test_a_rank_shows_its_kernels_and_communication_operators(empty, root, realdata):
    run = root / "cluster"
    for part in CLUSTER_PARTS:
        shutil.copytree(realdata / CLUSTER / part, run / part)
    with opened(empty, root, run) as (page, _):
        asked = {"rankId": "1", "dbPath": "", "step": "", "clusterPath": str(run)}
        core = "AI_CORE"
        # rank 1's kernel_details.csv: twenty AI_CORE kernels
        of_core = operators(empty, 1, False, core)
        assert len(of_core) == 20

        # the first page, unordered: in start order
        body = page.body("summary", "summary/queryComputeDetail", {
            **asked, "timeFlag": core, "currentPage": 1, "pageSize": 10, "orderBy": "", "order": "descend"})
        assert set(body) == {"computeDetails", "totalNum"} and body["totalNum"] == len(of_core)
        listed = body["computeDetails"]
        assert all(set(item) == COMPUTE_KEYS for item in listed)
        assert [(item["name"], item["type"], item["duration"], item["blockNum"], item["inputShapes"],
                 item["outputDataTypes"]) for item in listed] == [
            (row["name"], row["op_type"], round(row["dur"] / 1000, 2), row["block_dim"] or 0, row["input_shapes"] or "",
             row["output_dtypes"] or "") for row in of_core[:10]]
        check_starts(listed, of_core[:10])

        # the second page of the longest first
        body = page.body("summary", "summary/queryComputeDetail", {
            **asked, "timeFlag": core, "currentPage": 2, "pageSize": 5, "orderBy": "duration", "order": "descend"})
        longest = sorted(of_core, key=lambda row: -row["dur"])[5:10]
        assert [item["duration"] for item in body["computeDetails"]] == [round(row["dur"] / 1000, 2) for row in longest]

        hccl = operators(empty, 1, True)
        assert hccl
        body = page.body("summary", "summary/queryCommunicationDetail", {
            **asked, "timeFlag": "", "currentPage": 1, "pageSize": 100, "orderBy": "", "order": ""})
        assert set(body) == {"communicationDetails", "totalNum"} and body["totalNum"] == len(hccl)
        listed = body["communicationDetails"]
        assert all(set(item) == COMMUNICATION_KEYS for item in listed)
        assert [(item["name"], item["type"], item["duration"], item["waitTime"]) for item in listed] == [
            (row["name"], row["op_type"], round(row["dur"] / 1000, 4), round((row["wait_ns"] or 0) / 1000, 4))
            for row in hccl[:100]]
        check_starts(listed, hccl[:100])
        body = page.body("summary", "summary/queryCommunicationDetail", {
            **asked, "timeFlag": "", "currentPage": 1, "pageSize": 3, "orderBy": "duration", "order": "ascend"})
        assert [item["duration"] for item in body["communicationDetails"]] == sorted(
            round(row["dur"] / 1000, 4) for row in hccl)[:3]

        # a rank the cluster does not hold, and a column the table has not
        refused = page.send("summary", "summary/queryComputeDetail", {**asked, "rankId": "5", "timeFlag": core})
        assert refused["result"] is False and "no rank 5 in the cluster" in refused["error"]["message"]
        refused = page.send("summary", "summary/queryCommunicationDetail",
                            {**asked, "orderBy": "nonsense", "order": "ascend"})
        assert refused["result"] is False and "orderBy must be one of" in refused["error"]["message"]
