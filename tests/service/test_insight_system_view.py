"""The Timeline's system view (tableData/nameList, systemView/overall) through ``warehouse serve --insight-port``.

The real 2-rank db export (level1: rank 0's db holds an OVERLAP_ANALYSIS, rank 1's does not; each rank has
its analysis.db StepTraceTime) is imported over a real WebSocket, then each card is asked what the
frontend's SystemView asks right after ``parse/success`` (Ascend/msinsight
``modules/timeline/src/components/detailViews/SystemView.tsx``). The overall split is checked against
SQL on the warehouse (the named query step_time's figures) and against the profiler's StepTraceTime.
"""

from __future__ import annotations

import csv
import gzip
import json
import shutil

import pytest

from test_insight_timeline import opened, sql
from test_insight_ws import empty, root  # noqa: F401 - fixtures

pytestmark = pytest.mark.slow

DB_RUN = "msinsight/pytorch/db/level1"
TEXT_RANK0 = "msinsight/pytorch/text/level0/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT"
#: the profiler's StepTraceTime of each rank (analysis.db, step 50, us): computing, not overlapped, free
STEP_TRACE = {0: (8903.431, 98071.947, 25258.144), 1: (8915.634, 94556.05, 25840.499)}
NAMES = ["Computing Time", "Communication(Not Overlapped) Time", "Free Time", "E2E Time"]


def figures_in_sql(database, rank_id: int) -> list[float]:
    """The rank's summed step figures (step_answer, the named query step_time's view) in us, 2 digits."""
    (row,) = sql(database, "SELECT round(sum(computing_ns) / 1000.0, 2), "
                           "round(sum(communication_not_overlapped_ns) / 1000.0, 2), round(sum(free_ns) / 1000.0, 2) "
                           "FROM step_answer WHERE rank_id = ?", rank_id)
    return list(row)


def test_the_system_view_of_each_rank_is_its_step_trace_split(empty, root, realdata):
    run = root / "level1"
    shutil.copytree(realdata / DB_RUN, run)
    with opened(empty, root, run) as (page, body):
        for rank_id, card in enumerate(body["result"]):
            params = {"rankId": card["rankId"], "dbPath": card["dbPath"]}
            # no declared tables: the frontend shows its own statistics views
            assert page.body("timeline", "tableData/nameList", {**params, "isZh": False}) == {"layers": []}
            overall = page.body("timeline", "systemView/overall", {**params, "pageSize": 10, "current": 1,
                                                                   "startTime": 0, "endTime": 0})
            assert {k: overall[k] for k in ("count", "pageSize", "current", "isLoading")} == {
                "count": 4, "pageSize": 10, "current": 1, "isLoading": False}
            data = overall["data"]
            assert [(item["name"], item["id"], item["level"]) for item in data] == [
                (name, str(index), 1) for index, name in enumerate(NAMES)]
            assert all((item["nums"], item["avg"], item["max"], item["min"]) == ("-",) * 4 and "children" not in item
                       for item in data)
            totals = [item["totalTime"] for item in data]
            expected = figures_in_sql(empty, rank_id)
            assert totals[:3] == expected == [round(value, 2) for value in STEP_TRACE[rank_id]]
            assert totals[3] == round(sum(expected), 2)
            assert [item["ratio"] for item in data] == [round(100 * v / sum(expected), 2) for v in expected] + [100.0]
        # a time range is refused, and so is an unknown card
        answer = page.send("timeline", "systemView/overall", {"rankId": card["rankId"], "startTime": 0,
                                                              "endTime": 1000})
        assert answer["result"] is False and "time range" in answer["error"]["message"]
        answer = page.send("timeline", "tableData/nameList", {"rankId": "no-such-card"})
        assert answer["result"] is False and "no-such-card" in answer["error"]["message"]


def test_an_operator_profiles_card_declares_no_table_and_splits_nothing(empty, root, realdata):
    """The on-board operator profile's card, told parsed by its parse/success, is asked the same two requests:
    no layers (its trace declares no table), and an empty overall (no overlap analysis; the real server's isLoading
    would leave the page waiting)."""
    profile = root / "profile" / "visualize_data.bin"
    profile.parent.mkdir()
    shutil.copyfile(realdata / "msinsight/server_test_data/test_bin_mix/visualize_data.bin", profile)
    with opened(empty, root, profile) as (page, body):
        (card,) = body["result"]
        params = {"rankId": card["rankId"], "dbPath": card["dbPath"]}
        assert page.body("timeline", "tableData/nameList", {**params, "isZh": False}) == {"layers": []}
        assert page.body("timeline", "systemView/overall", {**params, "pageSize": 10, "current": 1, "startTime": 0,
                                                             "endTime": 0}) == {
            "data": [], "count": 0, "pageSize": 10, "current": 1, "isLoading": False}


@pytest.mark.parametrize("with_steps", [True, False], ids=["its step", "no step marker"])
def test_a_lone_trace_is_split_by_its_overlap_analysis(empty, root, realdata, with_steps):
    """A trace_view.json imported alone has no kernel list: its step figures come from its Overlap Analysis lanes
    (trace_overlap_interval), and a trace without step markers (ProfilerStep#N dropped) has none, so its lanes are
    summed by name as the real server's GetOverlapAnalysisData sums them. Either way the split is the profiler's
    own step_trace_time.csv of the same rank (level0 rank 0, step 50, us)."""
    trace = root / "lone" / "trace_view.json"
    trace.parent.mkdir()
    with gzip.open(realdata / TEXT_RANK0 / "trace_view.json.gz") as packed:
        events = json.load(packed)
    if not with_steps:
        events = [event for event in events if not str(event.get("name", "")).startswith("ProfilerStep#")]
    trace.write_text(json.dumps(events))
    with (realdata / TEXT_RANK0 / "step_trace_time.csv").open(newline="") as summary:
        (step,) = csv.DictReader(summary)
    expected = [round(float(step[name]), 2) for name in ("Computing", "Communication(Not Overlapped)", "Free")]
    with opened(empty, root, trace) as (page, body):
        (card,) = body["result"]
        overall = page.body("timeline", "systemView/overall", {"rankId": card["rankId"], "pageSize": 10,
                                                               "current": 1, "startTime": 0, "endTime": 0})
        totals = [item["totalTime"] for item in overall["data"]]
        assert totals[:3] == expected and totals[3] == round(sum(expected), 2)
        assert [item["name"] for item in overall["data"]] == NAMES
