"""The System View's layer tables (unit/systemView, unit/systemViewTrace) through ``warehouse serve --insight-port``.

The real text export and rank db of test_insight_search.py (rank 0, level1; the db holds an
OVERLAP_ANALYSIS table, the text export an "Overlap Analysis" process) are imported over a real WebSocket;
each layer's Summary and Trace are asked as the frontend's BaseSummary asks them (Ascend/msinsight
``modules/timeline/src/components/detailViews/SystemView.tsx``, ``Common.tsx`` summaryAndTraceTypes,
querySystemViewDetails, querySystemViewTrace), answers in the shapes of
``server/src/modules/timeline/protocol/TimelineProtocolUtil.cpp`` (SystemViewResponse,
SystemViewTraceResponse), figures checked against SQL on the warehouse's slice, process and
overlap_interval tables.
"""

from __future__ import annotations

import pytest

from test_insight_search import served_cards  # noqa: F401 - a fixture
from test_insight_timeline import TIMELINE_INPUTS, sql

pytestmark = pytest.mark.slow

#: the layers the frontend asks and the process names each takes (TextSqlConstant.h: HCCL also "communication")
LAYERS = {"Python": ("python",), "CANN": ("cann",), "Ascend Hardware": ("ascend hardware",),
          "HCCL": ("hccl", "communication"), "Overlap Analysis": ("overlap analysis",)}
SUMMARY_KEYS = {"name", "time", "totalTime", "numberCalls", "avg", "min", "max"}
#: overlap_interval's types as the profiler's trace names its Overlap Analysis lanes
OVERLAP_NAMES = ("CASE type WHEN 'computing' THEN 'Computing' WHEN 'communication' THEN 'Communication' "
                 "WHEN 'communication_not_overlapped' THEN 'Communication(Not Overlapped)' ELSE 'Free' END")


def layer_in_sql(database, card: dict, layer: str) -> list[tuple]:
    """(name, ts, dur) of the card's slices on the layer's processes (and its overlap intervals)."""
    names = LAYERS[layer]
    found = sql(database, "SELECT sl.name, sl.ts, sl.dur FROM slice AS sl JOIN thread AS t ON t.id = sl.thread_id "
                          "JOIN process AS p ON p.id = t.process_id "
                          f"WHERE t.source_id IN ({TIMELINE_INPUTS}) AND sl.name != '' "
                          f"AND lower(p.name) IN ({', '.join('?' * len(names))})", card["dbPath"], *names)
    if layer == "Overlap Analysis":
        found += sql(database, f"SELECT {OVERLAP_NAMES}, ts, dur FROM overlap_interval "
                               f"WHERE source_id IN ({TIMELINE_INPUTS})", card["dbPath"])
    return found


def summed(slices: list[tuple]) -> dict[str, dict]:
    """The answer's row per name, as the real server figures it from ``slices``."""
    busy = sum(dur for name, _, dur in slices if name != "Communication")
    durations: dict[str, list[int]] = {}
    for name, _, dur in slices:
        durations.setdefault(name, []).append(dur)
    return {name: {"name": name, "time": round(100.0 * sum(durs) / busy, 2), "totalTime": sum(durs) / 1000,
                   "numberCalls": len(durs), "avg": round(sum(durs) / len(durs) / 1000, 4), "min": min(durs) / 1000,
                   "max": max(durs) / 1000} for name, durs in durations.items()}


def asked(card: dict, layer: str, **more) -> dict:
    """A Summary page as BaseSummary asks it (isQueryTotal, layer, searchName; totalTime descending)."""
    return {"isQueryTotal": True, "layer": layer, "searchName": "", "rankId": card["rankId"], "dbPath": card["dbPath"],
            "pageSize": 10, "current": 1, "orderBy": "totalTime", "order": "descend", "startTime": 0, "endTime": 0,
            **more}


def test_each_layer_summary_is_its_slices_summed_by_name(served_cards):
    page, database, cards = served_cards
    for card in cards:
        for layer in LAYERS:
            expected = summed(layer_in_sql(database, card, layer))
            assert expected, (card["metaType"], layer)
            whole = page.body("timeline", "unit/systemView", asked(card, layer, pageSize=100000))
            assert set(whole) == {"systemViewDetails", "count", "pageSize", "currentPage"}
            assert (whole["count"], whole["pageSize"], whole["currentPage"]) == (len(expected), 100000, 1)
            rows = whole["systemViewDetails"]
            assert all(set(row) == SUMMARY_KEYS for row in rows)
            assert {row["name"]: row for row in rows} == expected
            totals = [row["totalTime"] for row in rows]
            assert totals == sorted(totals, reverse=True)
            # the second page of five, and the other order
            second = page.body("timeline", "unit/systemView", asked(card, layer, pageSize=5, current=2))
            assert second["systemViewDetails"] == rows[5:10] and second["count"] == len(expected)
            fewest = page.body("timeline", "unit/systemView", asked(card, layer, orderBy="numberCalls", order="ascend"))
            calls = [row["numberCalls"] for row in fewest["systemViewDetails"]]
            assert calls == sorted(row["numberCalls"] for row in expected.values())[:10]


def test_the_overlap_analysis_of_a_db_is_its_overlap_intervals(served_cards):
    page, database, cards = served_cards
    db_card = next(card for card in cards if card["metaType"] == "")
    intervals = sql(database, f"SELECT {OVERLAP_NAMES}, sum(dur), count(*) FROM overlap_interval "
                              f"WHERE source_id IN ({TIMELINE_INPUTS}) GROUP BY 1", db_card["dbPath"])
    assert len(intervals) >= 3
    rows = page.body("timeline", "unit/systemView", asked(db_card, "Overlap Analysis"))["systemViewDetails"]
    assert {row["name"]: (row["totalTime"], row["numberCalls"]) for row in rows} == {
        name: (total / 1000, count) for name, total, count in intervals}


def test_a_search_and_a_time_range_narrow_the_summary(served_cards):
    page, database, cards = served_cards
    for card in cards:
        slices = layer_in_sql(database, card, "CANN")
        text = "launch"
        wanted = summed([s for s in slices if text in s[0].lower()])
        found = page.body("timeline", "unit/systemView", asked(card, "CANN", searchName="LAUNCH", pageSize=1000))
        assert 0 < found["count"] == len(wanted) < len(summed(slices))
        assert {row["name"]: row for row in found["systemViewDetails"]} == wanted
        starts = sorted(ts - card["zero"] for _, ts, _ in slices)
        start, end = starts[len(starts) // 4], starts[len(starts) // 2]
        inside = summed([(name, ts, dur) for name, ts, dur in slices
                         if ts + dur - card["zero"] >= start and ts - card["zero"] <= end])
        ranged = page.body("timeline", "unit/systemView", asked(card, "CANN", startTime=start, endTime=end,
                                                                pageSize=1000))
        assert {row["name"]: row for row in ranged["systemViewDetails"]} == inside


def test_each_layer_trace_is_its_slices_one_by_one(served_cards):
    page, database, cards = served_cards
    for card in cards:
        for layer in ("Python", "Ascend Hardware", "HCCL"):
            slices = sorted(layer_in_sql(database, card, layer), key=lambda s: (s[1], s[0], s[2]))
            params = {**asked(card, layer, orderBy="startTime", order="ascend", current=3, pageSize=7)}
            params.pop("isQueryTotal")
            answer = page.body("timeline", "unit/systemViewTrace", params)
            assert set(answer) == {"systemViewDetails", "count", "pageSize", "currentPage"}
            assert (answer["count"], answer["pageSize"], answer["currentPage"]) == (len(slices), 7, 3)
            assert answer["systemViewDetails"] == [
                {"name": name, "startTime": ts - card["zero"], "duration": round(dur / 1000, 3)}
                for name, ts, dur in slices[14:21]]
            longest = page.body("timeline", "unit/systemViewTrace", {**params, "orderBy": "duration",
                                                                     "order": "descend", "current": 1})
            assert [row["duration"] for row in longest["systemViewDetails"]] == sorted(
                (round(dur / 1000, 3) for _, _, dur in slices), reverse=True)[:7]


def test_an_unknown_layer_or_card_is_refused(served_cards):
    page, _, cards = served_cards
    answer = page.send("timeline", "unit/systemView", asked(cards[0], "Kernels"))
    assert answer["result"] is False and "layer must be one of" in answer["error"]["message"]
    answer = page.send("timeline", "unit/systemViewTrace", {**asked(cards[0], "CANN"), "rankId": "no-such-card",
                                                            "dbPath": ""})
    assert answer["result"] is False and "no-such-card" in answer["error"]["message"]
