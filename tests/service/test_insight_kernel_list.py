"""The kernel list under the Timeline (unit/kernelDetails) and the jump from a kernel to its slice
(unit/one/kernelDetail), through ``warehouse serve --insight-port``.

The real text export and rank db of test_insight_search.py are imported over a real WebSocket; the
table is asked as the frontend's OperatorSubTable asks it (Ascend/msinsight
``modules/timeline/src/components/detailViews/OperatorDetailView.tsx``, ``Common.tsx`` queryKernelDetails,
queryOneKernel), answers in the shapes of ``server/src/modules/timeline/protocol/TimelineProtocolUtil.cpp``
(KernelDetailsResponse, OneKernelResponse), figures checked against SQL on the warehouse's kernel_answer
and slice views.
"""

from __future__ import annotations

import json

import pytest

from test_insight_search import served_cards  # noqa: F401 - a fixture
from test_insight_timeline import TIMELINE_INPUTS, sql

pytestmark = pytest.mark.slow

DETAIL_KEYS = {"id", "taskId", "name", "type", "acceleratorCore", "startTime", "duration", "waitTime", "blockNum",
               "inputShapes", "inputDataTypes", "inputFormats", "outputShapes", "outputDataTypes", "outputFormats"}


def kernels_in_sql(database, card: dict) -> list[tuple]:
    """(id, name, type, core, ts, dur, wait, task id) of the card's compute kernels (its rank's kernel_answer)."""
    return sql(database, "SELECT k.id, k.name, k.op_type, k.accelerator_core, k.ts, k.dur, coalesce(k.wait_ns, 0), "
                         "k.task_id FROM kernel_answer AS k JOIN source AS s ON s.run_id = k.run_id "
                         "AND s.rank_id = k.rank_id WHERE s.path = ? AND k.dur IS NOT NULL", card["dbPath"])


def table(card: dict, **asked) -> dict:
    return {"rankId": card["rankId"], "dbPath": card["dbPath"], "pageSize": 10, "current": 1, "orderBy": "duration",
            "order": "descend", "startTime": 0, "endTime": 0, "coreType": "", "filterCondition": [], **asked}


def test_the_table_pages_the_cards_kernels_longest_first(served_cards):
    page, database, cards = served_cards
    for card in cards:
        kernels = kernels_in_sql(database, card)
        longest = sorted(kernels, key=lambda k: -k[5])
        answer = page.body("timeline", "unit/kernelDetails", table(card, current=2, pageSize=5))
        assert set(answer) == {"kernelDetails", "acceleratorCoreList", "count", "pageSize", "currentPage"}
        assert (answer["count"], answer["pageSize"], answer["currentPage"]) == (len(kernels), 5, 2)
        assert answer["acceleratorCoreList"] == sorted({k[3] for k in kernels})
        assert all(set(item) == DETAIL_KEYS for item in answer["kernelDetails"])
        assert [(item["id"], item["name"], item["type"], item["acceleratorCore"], item["startTime"], item["duration"],
                 item["waitTime"], item["taskId"]) for item in answer["kernelDetails"]] == [
            (str(i), name, kind, core, ts - card["zero"], dur / 1000, wait / 1000, str(task))
            for i, name, kind, core, ts, dur, wait, task in longest[5:10]]


def test_a_time_range_a_core_and_a_column_filter_narrow_the_table(served_cards):
    page, database, cards = served_cards
    for card in cards:
        kernels = kernels_in_sql(database, card)
        starts = sorted(k[4] - card["zero"] for k in kernels)
        start, end = starts[len(starts) // 4], starts[len(starts) // 2]
        inside = [k for k in kernels if k[4] + k[5] - card["zero"] >= start and k[4] - card["zero"] <= end]
        answer = page.body("timeline", "unit/kernelDetails", table(card, startTime=start, endTime=end, pageSize=1000,
                                                                   orderBy="startTime", order="ascend"))
        assert 0 < answer["count"] == len(inside) < len(kernels)
        # equal starts keep the kernels' own order, longest first (insight_operators)
        assert [item["id"] for item in answer["kernelDetails"]] == [
            str(k[0]) for k in sorted(inside, key=lambda k: (k[4], -k[5], k[1]))]
        core = "AI_CORE"
        wanted = [k for k in kernels if k[3] == core and "matmul" in k[2].lower()]
        by_type = [json.dumps({"columnName": "type", "value": "MATMUL"})]
        filtered = page.body("timeline", "unit/kernelDetails",
                             table(card, coreType=core, pageSize=1000, filterCondition=by_type))
        assert 0 < filtered["count"] == len(wanted)
        assert {item["id"] for item in filtered["kernelDetails"]} == {str(k[0]) for k in wanted}


def test_a_kernel_row_jumps_to_its_slice(served_cards):
    page, database, cards = served_cards
    for card in cards:
        (row,) = page.body("timeline", "unit/kernelDetails", table(card, pageSize=1))["kernelDetails"]
        answer = page.body("timeline", "unit/one/kernelDetail", {
            "rankId": card["rankId"], "dbPath": card["dbPath"], "name": row["name"], "timestamp": row["startTime"],
            "duration": row["duration"]})
        # the slice of that name on the card's lanes covering the kernel's start, the latest-starting
        (expected,) = sql(database, "SELECT sl.id, sl.thread_id, t.process_id, sl.depth, sl.dur FROM slice AS sl "
                                    "JOIN thread AS t ON t.id = sl.thread_id "
                                    f"WHERE t.source_id IN ({TIMELINE_INPUTS}) AND sl.name = ? "
                                    "AND sl.ts <= ? AND sl.ts + sl.dur >= ? ORDER BY sl.ts DESC, sl.id LIMIT 1",
                          card["dbPath"], row["name"], *(row["startTime"] + card["zero"],) * 2)
        assert answer == {"id": str(expected[0]), "rankId": card["rankId"], "depth": expected[3],
                          "duration": expected[4], "threadId": str(expected[1]), "pid": str(expected[2]),
                          "step": "", "group": ""}
        assert expected[4] == round(row["duration"] * 1000)
        missing = page.body("timeline", "unit/one/kernelDetail", {"rankId": card["rankId"], "name": "no such kernel",
                                                                  "timestamp": 0, "duration": 0})
        assert (missing["id"], missing["threadId"], missing["pid"]) == ("", "", "")


def test_a_bad_filter_is_refused_with_a_message(served_cards):
    page, _, cards = served_cards
    answer = page.send("timeline", "unit/kernelDetails", table(cards[0], filterCondition=[
        json.dumps({"columnName": "startTime; drop table kernel", "value": "1"})]))
    assert answer["result"] is False and "filterCondition" in answer["error"]["message"]
    answer = page.send("timeline", "unit/kernelDetails", table(cards[0], startTime=10, endTime=5))
    assert answer["result"] is False and "before startTime" in answer["error"]["message"]
