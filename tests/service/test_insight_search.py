"""The Timeline's search box (search/count, search/slice, search/all/slices) through ``warehouse serve --insight-port``.

A real text export (rank 0, level1: trace_view.json and its CSVs) and a real rank db (rank 0, level1) are
imported over one real WebSocket, each its own card; then the search is driven as the frontend drives it
(Ascend/msinsight ``modules/timeline/src/components/CategorySearch.tsx`` queryDataCount and jumpSlice,
``components/detailViews/FindInWindow.tsx`` searchData), in the shapes of the real server's
``server/src/modules/timeline/protocol/TimelineProtocolUtil.cpp`` (SearchCountResponse, SearchSliceResponse,
SearchAllSlicesResponse). Every figure is checked against SQL on the warehouse's slice view.
"""

from __future__ import annotations

import shutil

import pytest
from websockets.sync.client import connect

from test_insight_timeline import TIMELINE_INPUTS, imported, sql
from test_insight_ws import Page, serving
from warehouse import db

pytestmark = pytest.mark.slow

TEXT_RANK = "msinsight/pytorch/text/level1/rank0_ascend_pt"
DB_RANK = "msinsight/pytorch/db/level1/rank0_ascend_pt"
SEARCH_KEYS = {"rankId", "dbPath", "searchContent", "isMatchCase", "isMatchExact"}
ITEM_KEYS = {"name", "timestamp", "duration", "depth", "id", "tid", "pid", "rankId", "deviceId", "dbPath", "metaType"}


@pytest.fixture(scope="module")
def served_cards(tmp_path_factory, realdata):
    """One server whose page imported the text export and the rank db: yields (page, database, cards), each
    card ``{rankId, dbPath, zero, metaType, lanes, counters}`` from its parse/success event (the metadata of
    its thread lanes and of its counter lanes)."""
    folder = tmp_path_factory.mktemp("search")
    root, database = folder / "root", folder / "warehouse.db"
    db.connect(database).close()
    for name, sample in (("text", TEXT_RANK), ("db", DB_RANK)):
        shutil.copytree(realdata / sample, root / name / "rank0_ascend_pt")
    with serving(database, root) as (url, _), connect(url) as socket:
        page = Page(socket)
        for name in ("text", "db"):
            imported(page, root / name)
        cards = []
        for event in page.events:
            if event["event"] != "parse/success":
                continue
            body = event["body"]
            lanes = [lane["metadata"] for process in body["unit"]["children"] for lane in process["children"]
                     if lane["type"] == "thread"]
            counters = [lane["metadata"] for process in body["unit"]["children"] for lane in process["children"]
                        if lane["type"] == "counter"]
            cards.append({"rankId": body["unit"]["metadata"]["cardId"], "dbPath": body["dbPath"],
                          "zero": int(body["startTime"]), "metaType": lanes[0]["metaType"], "lanes": lanes,
                          "counters": counters})
        assert [card["metaType"] for card in cards] == ["TEXT", ""]
        page.events.clear()
        yield page, database, cards


def matches_in_sql(database, card: dict, where: str, *args) -> list[tuple]:
    """(id, thread, process, ts, dur, depth, name) of the card's slices whose name passes ``where``, in time order."""
    return sql(database, "SELECT sl.id, sl.thread_id, t.process_id, sl.ts, sl.dur, sl.depth, sl.name FROM slice AS sl "
                         "JOIN thread AS t ON t.id = sl.thread_id "
                         f"WHERE t.source_id IN ({TIMELINE_INPUTS}) AND {where} "
                         "ORDER BY sl.ts, sl.thread_id, sl.id", card["dbPath"], *args)


def search(card: dict, text: str, case: bool = False, exact: bool = False, lanes: list | None = None) -> dict:
    return {"rankId": card["rankId"], "dbPath": card["dbPath"], "searchContent": text, "isMatchCase": case,
            "isMatchExact": exact, "metadataList": lanes or []}


@pytest.mark.parametrize("text, case, exact, where", (
    ("matmul", False, False, "instr(lower(sl.name), 'matmul') > 0"),
    ("MatMul", True, False, "instr(sl.name, 'MatMul') > 0"),
    ("matmul", True, False, "instr(sl.name, 'matmul') > 0"),
    ("aclnnmm_matmulcommon_matmulv2", False, True, "lower(sl.name) = 'aclnnmm_matmulcommon_matmulv2'"),
    ("aclnnmm_matmulcommon_matmulv2", True, True, "sl.name = 'aclnnmm_matmulcommon_matmulv2'"),
))
def test_each_card_counts_its_matches(served_cards, text, case, exact, where):
    page, database, cards = served_cards
    for card in cards:
        expected = len(matches_in_sql(database, card, where))
        answer = page.body("timeline", "search/count", search(card, text, case, exact))
        assert answer == {"totalCount": expected, "countList": [{"rankId": card["rankId"], "dbPath": card["dbPath"],
                                                                 "count": expected}]}
    # the sample holds lower-case matmul only inside other case: a case-sensitive search finds none of it
    if (text, case) == ("matmul", True):
        assert expected == 0


def test_search_slice_steps_through_the_matches_in_time_order(served_cards):
    page, database, cards = served_cards
    for card in cards:
        found = matches_in_sql(database, card, "instr(lower(sl.name), 'matmul') > 0")
        assert len(found) > 3
        for index in (1, 2, len(found)):
            slice_id, thread, process, ts, dur, depth, _ = found[index - 1]
            answer = page.body("timeline", "search/slice", {**search(card, "matmul"), "index": index})
            assert answer == {"rankId": card["rankId"], "pid": str(process), "tid": str(thread), "id": str(slice_id),
                              "dbPath": card["dbPath"], "startTime": ts - card["zero"], "duration": dur,
                              "depth": depth, "metaType": card["metaType"]}
            # the jump's lane exists in the card's tree
            assert any(lane["threadId"] == answer["tid"] and lane["processId"] == answer["pid"]
                       for lane in card["lanes"])
        refused = page.send("timeline", "search/slice", {**search(card, "matmul"), "index": len(found) + 1})
        assert refused["result"] is False and f"has {len(found)}" in refused["error"]["message"]


@pytest.mark.parametrize("order_by, order, key", (
    ("duration", "descend", lambda row: -row[4]),
    ("name", "ascend", lambda row: row[6]),
    ("timestamp", "descend", lambda row: -row[3]),
))
def test_the_find_window_pages_the_matches_in_the_asked_order(served_cards, order_by, order, key):
    page, database, cards = served_cards
    for card in cards:
        found = sorted(matches_in_sql(database, card, "instr(lower(sl.name), 'matmul') > 0"), key=key)
        answer = page.body("timeline", "search/all/slices", {**search(card, "matmul"), "current": 2, "pageSize": 4,
                                                             "orderBy": order_by, "order": order})
        assert {k: answer[k] for k in ("count", "dbPath", "pageSize", "currentPage")} == {
            "count": len(found), "dbPath": card["dbPath"], "pageSize": 4, "currentPage": 2}
        items = answer["searchAllSlicesDetails"]
        assert all(set(item) == ITEM_KEYS for item in items)
        assert [(item["id"], item["tid"], item["pid"], item["timestamp"], item["duration"], item["depth"], item["name"])
                for item in items] == [(str(i), str(t), str(p), ts - card["zero"], dur, depth, name)
                                       for i, t, p, ts, dur, depth, name in found[4:8]]
        assert {(item["rankId"], item["dbPath"], item["metaType"]) for item in items} == {
            (card["rankId"], card["dbPath"], card["metaType"])}


def test_the_name_filter_narrows_the_find_window(served_cards):
    page, database, cards = served_cards
    card = cards[0]
    found = matches_in_sql(database, card, "instr(lower(sl.name), 'matmul') > 0 AND instr(lower(sl.name), 'addmm') > 0")
    answer = page.body("timeline", "search/all/slices", {**search(card, "matmul"), "current": 1, "pageSize": 100,
                                                         "orderBy": "timestamp", "order": "ascend",
                                                         "nameFilter": "AddMm"})
    assert 0 < answer["count"] == len(found)
    assert [item["id"] for item in answer["searchAllSlicesDetails"]] == [str(row[0]) for row in found]


def test_locked_lanes_search_their_range_only(served_cards):
    page, database, cards = served_cards
    text_card, db_card = cards
    everything = matches_in_sql(database, text_card, "instr(lower(sl.name), 'matmul') > 0")
    _, thread, process, *_ = everything[len(everything) // 2]
    # the locked range: the middle of the lane's matches, relative; only slices wholly inside count
    lane_rows = [row for row in everything if row[1] == thread]
    start, end = lane_rows[1][3] - text_card["zero"], lane_rows[-2][3] + lane_rows[-2][4] - text_card["zero"]
    inside = [row for row in lane_rows if row[3] - text_card["zero"] >= start
              and row[3] + row[4] - text_card["zero"] <= end]
    lane = {"tid": str(thread), "pid": str(process), "metaType": "TEXT", "rankId": text_card["rankId"],
            "lockStartTime": start, "lockEndTime": end}
    assert 0 < len(inside) < len(everything)
    answer = page.body("timeline", "search/count", search(text_card, "matmul", lanes=[lane]))
    assert answer["totalCount"] == len(inside)
    first = page.body("timeline", "search/slice", {**search(text_card, "matmul", lanes=[lane]), "index": 1})
    assert first["id"] == str(inside[0][0])
    listed = page.body("timeline", "search/all/slices", {**search(text_card, "matmul", lanes=[lane]), "current": 1,
                                                         "pageSize": 50, "orderBy": "timestamp", "order": "ascend"})
    assert [item["id"] for item in listed["searchAllSlicesDetails"]] == [str(row[0]) for row in inside]
    # a lane locked on another card: nothing of this card is searched
    assert page.body("timeline", "search/count", search(db_card, "matmul", lanes=[lane]))["totalCount"] == 0


def test_bad_searches_are_refused_with_a_message(served_cards):
    page, _, cards = served_cards
    answer = page.send("timeline", "search/count", {**search(cards[0], "matmul"), "isMatchCase": "maybe"})
    assert answer["result"] is False and "isMatchCase" in answer["error"]["message"]
    answer = page.send("timeline", "search/count", {**search(cards[0], "matmul"), "rankId": "no-such-card"})
    assert answer["result"] is False and "no-such-card" in answer["error"]["message"]
    answer = page.send("timeline", "search/all/slices", {**search(cards[0], "matmul"), "orderBy": "depth",
                                                         "order": "ascend"})
    assert answer["result"] is False and "orderBy" in answer["error"]["message"]
