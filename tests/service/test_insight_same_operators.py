"""A line of the timeline's selection summary listed slice by slice (query/all/same/operators/duration),
through ``warehouse serve --insight-port``.

On the real text export and rank db of test_insight_search.py, a lane is selected (unit/threads) and its
lines are clicked as the frontend does (Ascend/msinsight ``modules/timeline/src/insight/units/details.tsx``
clickCallback keeps the line's rankId, processes, startTime, endTime, name, metaTypeList and count;
``insight/units/AscendUnit.tsx`` SameOperatorsList sends them with the table's order and page). Answers in
the shape of ``server/src/modules/timeline/protocol/TimelineProtocolUtil.cpp``
ToResponseJson<UnitThreadsOperatorsResponse>, figures checked against SQL on the warehouse's slice view.
"""

from __future__ import annotations

import pytest

from test_insight_search import served_cards  # noqa: F401 - a fixture
from test_insight_timeline import sql

pytestmark = pytest.mark.slow


def busiest_lane(database, card: dict) -> dict:
    """The card's lane holding the most slices (its parse/success metadata)."""
    lanes = {int(lane["threadId"]): lane for lane in card["lanes"]}
    counts = sql(database, f"SELECT thread_id, count(*) FROM slice WHERE thread_id IN ({','.join('?' * len(lanes))}) "
                           "GROUP BY thread_id ORDER BY count(*) DESC, thread_id", *lanes)
    return lanes[counts[0][0]]


def clicked(page, card: dict, lane: dict, start: int, end: int) -> list[dict]:
    """The lines of unit/threads over the lane and range, as the frontend keeps them when one is clicked."""
    lines = page.body("timeline", "unit/threads", {
        "rankId": card["rankId"], "startTime": start, "endTime": end,
        "metadataList": [{"tid": lane["threadId"], "pid": lane["processId"], "metaType": lane["metaType"]}]})["data"]
    return [{"rankId": card["rankId"], "dbPath": card["dbPath"], "processes": line["processes"], "startTime": start,
             "endTime": end, "name": line["title"], "wallDuration": line["wallDuration"],
             "metaTypeList": line["metaTypeList"], "count": line["occurrences"]} for line in lines]


def test_each_line_lists_the_slices_it_counted(served_cards):
    page, database, cards = served_cards
    for card in cards:
        lane = busiest_lane(database, card)
        (first, last), = sql(database, "SELECT min(ts), max(ts + dur) FROM slice WHERE thread_id = ?",
                             int(lane["threadId"]))
        # the middle half of the lane
        start = (first - card["zero"]) + (last - first) // 4
        end = start + (last - first) // 2
        lines = clicked(page, card, lane, start, end)
        assert lines and lines[0]["processes"] == [{"pid": lane["processId"], "tidList": [lane["threadId"]]}]
        for line in lines[:3]:
            expected = sql(database, "SELECT id, ts, dur, depth FROM slice WHERE thread_id = ? AND name = ? "
                                     "AND ts < ? AND ts + dur > ? ORDER BY dur DESC, ts, id",
                           int(lane["threadId"]), line["name"], end + card["zero"], start + card["zero"])
            answer = page.body("timeline", "query/all/same/operators/duration", {
                **line, "field": "duration", "order": "descend", "orderBy": "duration", "current": 1,
                "pageSize": 100})
            # as many as the summary counted, longest first
            assert answer["count"] == len(expected) == line["count"]
            assert (answer["rankId"], answer["pageSize"], answer["currentPage"]) == (card["rankId"], 100, 1)
            assert answer["sameOperatorsDetails"] == [
                {"timestamp": ts - card["zero"], "duration": dur, "depth": depth, "id": str(i),
                 "tid": lane["threadId"], "pid": lane["processId"]} for i, ts, dur, depth in expected]


def test_pages_in_time_order_and_a_depth_range(served_cards):
    page, database, cards = served_cards
    card = cards[0]
    lane = busiest_lane(database, card)
    line = max(clicked(page, card, lane, 0, 10**12), key=lambda line: line["count"])
    expected = sql(database, "SELECT id, depth FROM slice WHERE thread_id = ? AND name = ? ORDER BY ts, id",
                   int(lane["threadId"]), line["name"])
    assert len(expected) > 4
    answer = page.body("timeline", "query/all/same/operators/duration", {
        **line, "orderBy": "timestamp", "order": "ascend", "current": 2, "pageSize": 2})
    assert [item["id"] for item in answer["sameOperatorsDetails"]] == [str(row[0]) for row in expected[2:4]]
    depth = expected[0][1]
    for low, high in ((depth, depth), (depth + 1, depth + 5)):
        kept = page.body("timeline", "query/all/same/operators/duration", {
            **line, "orderBy": "timestamp", "order": "ascend", "current": 1, "pageSize": 1000,
            "startDepth": str(low), "endDepth": str(high)})
        assert [item["id"] for item in kept["sameOperatorsDetails"]] == [
            str(row[0]) for row in expected if low <= row[1] <= high]
    assert kept["count"] < len(expected)


def test_a_thread_of_another_card_is_refused(served_cards):
    page, _, cards = served_cards
    text_card, db_card = cards
    lane = text_card["lanes"][0]
    answer = page.send("timeline", "query/all/same/operators/duration", {
        "rankId": db_card["rankId"], "name": "x", "startTime": 0, "endTime": 1,
        "processes": [{"pid": lane["processId"], "tidList": [lane["threadId"]]}]})
    assert answer["result"] is False and "not part of card" in answer["error"]["message"]
    answer = page.send("timeline", "query/all/same/operators/duration", {
        "rankId": db_card["rankId"], "name": "x", "startTime": 0, "endTime": 1, "processes": "all"})
    assert answer["result"] is False and "processes" in answer["error"]["message"]
