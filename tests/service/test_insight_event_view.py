"""The System View's Events View (unit/eventView) through ``warehouse serve --insight-port``.

The real text export and rank db of test_insight_search.py are imported over a real WebSocket; a lane's
events are asked as the frontend's EventsView asks them after "Show in Events View" (Ascend/msinsight
``modules/timeline/src/components/detailViews/EventsView.tsx`` searchData, ``actions/actionShowInEventsView.ts``),
answers in the shape of ``server/src/modules/timeline/protocol/TimelineProtocolUtil.cpp``
ToResponseJson<EventsViewResponse> with the columns of ``core/database/TraceDatabaseHelper.cpp``
eventsViewColumnsMap, rows checked against SQL on the warehouse's slice, thread and process tables.
"""

from __future__ import annotations

import json

import pytest

from test_insight_search import served_cards  # noqa: F401 - a fixture
from test_insight_timeline import sql

pytestmark = pytest.mark.slow

HOST_KEYS = ["name", "start", "duration", "tid", "pid"]
DEVICE_KEYS = ["name", "start", "duration", "threadName", "rankId"]


def process_of(database, card: dict, name: str) -> str:
    """The id of the card's lane process named ``name`` (the first of its thread lanes)."""
    ids = {lane["processId"] for lane in card["lanes"]}
    found = [str(pid) for pid, in sql(database, "SELECT id FROM process WHERE name = ? ORDER BY id", name)
             if str(pid) in ids]
    assert found, (card["metaType"], name)
    return found[0]


def events_in_sql(database, process_id: str, thread_id: str | None = None) -> list[tuple]:
    """(id, name, ts, dur, depth, thread id, tid, thread name, pid) of a process's (or thread's) slices by start."""
    return sql(database, "SELECT sl.id, sl.name, sl.ts, sl.dur, sl.depth, t.id, t.tid, t.name, p.pid FROM slice AS sl "
                         "JOIN thread AS t ON t.id = sl.thread_id JOIN process AS p ON p.id = t.process_id "
                         "WHERE p.id = ? AND (? IS NULL OR t.id = ?) ORDER BY sl.ts, sl.id",
               int(process_id), thread_id, thread_id)


def asked(card: dict, process_id: str, thread_id: str = "", **more) -> dict:
    """The Events View's request for a lane (a process lane's metadata has no threadId)."""
    return {"rankId": card["rankId"], "dbPath": card["dbPath"], "pageSize": 10, "currentPage": 1,
            "orderBy": "start", "order": "ascend", "pid": process_id, "tid": thread_id, "threadName": "",
            "processName": "", "metaType": card["metaType"], "filterCondition": [], "startTime": 0, "endTime": 0,
            **more}


def test_a_device_process_lists_its_slices_with_stream_and_card(served_cards):
    page, database, cards = served_cards
    for card in cards:
        process_id = process_of(database, card, "Ascend Hardware")
        events = events_in_sql(database, process_id)
        answer = page.body("timeline", "unit/eventView", asked(card, process_id, currentPage=2, pageSize=5))
        assert set(answer) == {"eventDetails", "columnList", "count", "pageSize", "currentPage"}
        assert [column["key"] for column in answer["columnList"]] == DEVICE_KEYS
        assert answer["columnList"][3] == {"name": "Stream Name", "type": "string", "key": "threadName"}
        assert (answer["count"], answer["pageSize"], answer["currentPage"]) == (len(events), 5, 2)
        assert answer["eventDetails"] == [
            {"id": str(i), "name": name, "start": ts - card["zero"], "duration": dur, "depth": depth,
             "threadId": str(thread), "processId": process_id, "threadName": thread_name, "rankId": card["rankId"]}
            for i, name, ts, dur, depth, thread, _, thread_name, _ in events[5:10]]
        longest = page.body("timeline", "unit/eventView", asked(card, process_id, orderBy="duration", order="descend"))
        assert [row["duration"] for row in longest["eventDetails"]] == sorted((e[3] for e in events), reverse=True)[:10]


def test_a_host_thread_lists_its_slices_with_the_inputs_ids(served_cards):
    page, database, cards = served_cards
    for card in cards:
        process_id = process_of(database, card, "CANN")
        thread_id = next(lane["threadId"] for lane in card["lanes"] if lane["processId"] == process_id)
        events = events_in_sql(database, process_id, thread_id)
        answer = page.body("timeline", "unit/eventView", asked(card, process_id, thread_id, pageSize=1000000))
        assert [column["key"] for column in answer["columnList"]] == HOST_KEYS
        assert answer["count"] == len(events) > 0
        assert answer["eventDetails"] == [
            {"id": str(i), "name": name, "start": ts - card["zero"], "duration": dur, "depth": depth,
             "threadId": thread_id, "processId": process_id, "tid": tid, "pid": pid}
            for i, name, ts, dur, depth, _, tid, _, pid in events]
        # the name filter (any case) and a time range narrow it
        text = events[0][1][1:4].upper()
        named = [e for e in events if text.lower() in e[1].lower()]
        by_name = [json.dumps({"columnName": "name", "value": text})]
        found = page.body("timeline", "unit/eventView", asked(card, process_id, thread_id, filterCondition=by_name))
        assert found["count"] == len(named) > 0
        starts = sorted(e[2] - card["zero"] for e in events)
        start, end = starts[len(starts) // 4], starts[len(starts) // 2]
        inside = [e for e in events if e[2] + e[3] - card["zero"] >= start and e[2] - card["zero"] <= end]
        ranged = page.body("timeline", "unit/eventView", asked(card, process_id, thread_id, startTime=start,
                                                               endTime=end, pageSize=1000000))
        assert [row["id"] for row in ranged["eventDetails"]] == [str(e[0]) for e in inside]


def test_an_unknown_process_or_another_cards_lane_is_refused(served_cards):
    page, _, cards = served_cards
    answer = page.send("timeline", "unit/eventView", asked(cards[0], "999999999"))
    assert answer["result"] is False and "unknown process 999999999" in answer["error"]["message"]
    other = cards[1]["lanes"][0]
    answer = page.send("timeline", "unit/eventView", asked(cards[0], other["processId"], other["threadId"]))
    assert answer["result"] is False
