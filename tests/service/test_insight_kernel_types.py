"""The System View's Operator Details table (kernel/total/list) through ``warehouse serve --insight-port``.

The real text export and rank db of test_insight_search.py are imported over a real WebSocket; the table
is asked as the frontend's OperatorDetailView asks it (Ascend/msinsight
``modules/timeline/src/components/detailViews/OperatorDetailView.tsx`` queryOperatorStatistic), answers in
the shape of ``server/src/modules/timeline/protocol/TimelineProtocolUtil.cpp`` ToResponseJson<KernelOverallResponse>
with the figures of ``handler/QueryKernelOverallHandler.cpp`` BuildKernelOverallResult, checked against SQL
on the warehouse's kernel_answer (the kernels the Kernel Details table lists).
"""

from __future__ import annotations

import json

import pytest

from test_insight_kernel_list import kernels_in_sql
from test_insight_search import served_cards  # noqa: F401 - a fixture

pytestmark = pytest.mark.slow

ROW_KEYS = {"key", "type", "acceleratorCore", "totalTime", "number", "avgTime", "minTime", "maxTime"}


def grouped(kernels: list[tuple]) -> dict[tuple[str, str], dict]:
    """The answer's row per (type, core), as BuildOverallRecords and BuildKernelOverallResult figure it."""
    durations: dict[tuple[str, str], list[int]] = {}
    for _, _, kind, core, _, dur, _, _ in kernels:
        durations.setdefault((kind or "", core or ""), []).append(dur)
    return {(kind, core): {"key": f"{len(kind)}:{kind}|{len(core)}:{core}", "type": kind, "acceleratorCore": core,
                           "number": len(durs), "totalTime": sum(durs) / 1000,
                           "avgTime": round(sum(durs) / len(durs) / 1000, 2), "minTime": min(durs) / 1000,
                           "maxTime": max(durs) / 1000}
            for (kind, core), durs in durations.items()}


def asked(card: dict, **more) -> dict:
    """A page as queryOperatorStatistic asks it (group "Operator Type", topK 0; totalTime descending)."""
    return {"rankId": card["rankId"], "dbPath": card["dbPath"], "group": "Operator Type", "topK": 0, "current": 1,
            "pageSize": 10, "orderBy": "totalTime", "order": "descend", "filterCondition": [], "startTime": 0,
            "endTime": 0, **more}


def test_the_table_is_the_cards_kernels_per_type_and_core(served_cards):
    page, database, cards = served_cards
    for card in cards:
        expected = grouped(kernels_in_sql(database, card))
        assert len(expected) > 5
        whole = page.body("timeline", "kernel/total/list", asked(card, pageSize=100000))
        assert set(whole) == {"data", "count", "pageSize", "current", "isLoading"}
        assert (whole["count"], whole["pageSize"], whole["current"], whole["isLoading"]) == (
            len(expected), 100000, 1, False)
        rows = whole["data"]
        assert all(set(row) == ROW_KEYS for row in rows)
        assert {(row["type"], row["acceleratorCore"]): row for row in rows} == expected
        assert [row["totalTime"] for row in rows] == sorted((row["totalTime"] for row in rows), reverse=True)
        second = page.body("timeline", "kernel/total/list", asked(card, current=2, pageSize=3))
        assert second["data"] == rows[3:6]
        # ties keep the type's order (SortOverallRecords)
        fewest = page.body("timeline", "kernel/total/list", asked(card, orderBy="number", order="ascend",
                                                                 pageSize=100000))["data"]
        assert [(row["number"], row["type"]) for row in fewest] == sorted(
            (row["number"], row["type"]) for row in expected.values())


def test_a_filter_and_a_time_range_narrow_the_table(served_cards):
    page, database, cards = served_cards
    for card in cards:
        kernels = kernels_in_sql(database, card)
        core = "AI_CORE"
        wanted = {key: row for key, row in grouped(kernels).items() if "ai_core" in key[1].lower()}
        by_core = [json.dumps({"columnName": "acceleratorCore", "value": core.lower()})]
        found = page.body("timeline", "kernel/total/list", asked(card, filterCondition=by_core, pageSize=1000))
        assert 0 < found["count"] == len(wanted)
        assert {(row["type"], row["acceleratorCore"]) for row in found["data"]} == set(wanted)
        starts = sorted(k[4] - card["zero"] for k in kernels)
        start, end = starts[len(starts) // 4], starts[len(starts) // 2]
        inside = grouped([k for k in kernels if k[4] + k[5] - card["zero"] >= start and k[4] - card["zero"] <= end])
        ranged = page.body("timeline", "kernel/total/list", asked(card, startTime=start, endTime=end, pageSize=1000))
        assert {(row["type"], row["acceleratorCore"]): row for row in ranged["data"]} == inside
        # the rows of a type add up to the Kernel Details table of that range
        details = page.body("timeline", "unit/kernelDetails", {
            "rankId": card["rankId"], "dbPath": card["dbPath"], "pageSize": 10, "current": 1, "orderBy": "duration",
            "order": "descend", "startTime": start, "endTime": end, "coreType": "", "filterCondition": []})
        assert sum(row["number"] for row in ranged["data"]) == details["count"]


def test_an_unknown_filter_column_is_refused(served_cards):
    page, _, cards = served_cards
    bad = [json.dumps({"columnName": "taskId", "value": "1"})]
    answer = page.send("timeline", "kernel/total/list", asked(cards[0], filterCondition=bad))
    assert answer["result"] is False and "filterCondition" in answer["error"]["message"]
