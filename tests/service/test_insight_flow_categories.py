"""Arrows by category on the Timeline (flow/categoryList, flow/categoryEvents), through
``warehouse serve --insight-port``.

On the real text export (trace flow events s/f: HostToDevice, async_npu, ...) and rank db (CONNECTION_IDS)
of test_insight_search.py, the arrow filter is driven as the frontend drives it (Ascend/msinsight
``modules/timeline/src/components/FilterLinkLine.tsx`` useGetCategories, fetchLinkLineForCard), answers in
the shapes of ``server/src/modules/timeline/protocol/TimelineProtocolUtil.cpp`` (FlowCategoryListResponse,
FlowCategoryEventsResponse), checked against SQL on the warehouse's flow and slice tables.
"""

from __future__ import annotations

import pytest

from test_insight_search import served_cards  # noqa: F401 - a fixture
from test_insight_timeline import TIMELINE_INPUTS, sql

pytestmark = pytest.mark.slow

#: both ends of each arrow of the card: (flow, category, from thread, from process, from time, from depth, to ...)
ARROWS = ("SELECT f.id, coalesce(f.category, f.name), a.thread_id, ta.process_id, coalesce(f.ts_out, a.ts), a.depth, "
          "b.thread_id, tb.process_id, coalesce(f.ts_in, b.ts), b.depth FROM flow AS f "
          "JOIN slice AS a ON a.id = f.slice_out JOIN thread AS ta ON ta.id = a.thread_id "
          "JOIN slice AS b ON b.id = f.slice_in JOIN thread AS tb ON tb.id = b.thread_id "
          f"WHERE ta.source_id IN ({TIMELINE_INPUTS}) ORDER BY coalesce(f.ts_out, a.ts), f.id")


def arrows_in_sql(database, card: dict, category: str, start: int, end: int) -> list[tuple]:
    """The card's arrows of ``category`` with an end in [start, end] (relative ns)."""
    zero = card["zero"]
    return [row for row in sql(database, ARROWS, card["dbPath"]) if row[1] == category
            and (start <= row[4] - zero <= end or start <= row[8] - zero <= end)]


def drawn(row: tuple, card: dict) -> dict:
    _, category, from_thread, from_process, from_ts, from_depth, to_thread, to_process, to_ts, to_depth = row
    end = {"rankId": card["rankId"]}
    return {"category": category,
            "from": {"pid": str(from_process), "tid": str(from_thread), "timestamp": from_ts - card["zero"],
                     "depth": from_depth, **end},
            "to": {"pid": str(to_process), "tid": str(to_thread), "timestamp": to_ts - card["zero"], "depth": to_depth,
                   **end}}


def sampled(rows: list[tuple], card: dict, start: int, end: int) -> list[dict]:
    """The arrows drawn of ``rows`` (in start order) for the window: the first per 1/1000 of the window of its
    start and pair of lanes."""
    step = max(1, (end - start) // 1000)
    kept, seen = [], set()
    for row in rows:
        key = (row[2], row[6], (row[4] - card["zero"] - start) // step)
        if key not in seen:
            seen.add(key)
            kept.append(drawn(row, card))
    return kept


def events(page, card: dict, category: str, start: int, end: int, **locked) -> list[dict]:
    return page.body("timeline", "flow/categoryEvents", {
        "rankId": card["rankId"], "dbPath": card["dbPath"], "startTime": start, "endTime": end, "category": category,
        "timePerPx": max(1, (end - start) / 1000), "isSimulation": False, "host": "", "metadataList": [],
        "lockStartTime": 0, "lockEndTime": 0, **locked})["flowDetailList"]


def test_each_card_lists_its_arrow_categories(served_cards):
    page, database, cards = served_cards
    for card, known in zip(cards, ({"HostToDevice", "async_npu", "async_task_queue", "fwdbwd"}, {"connection"})):
        answer = page.body("timeline", "flow/categoryList", {"rankId": card["rankId"], "dbPath": card["dbPath"]})
        assert answer == {"category": sorted({row[1] for row in sql(database, ARROWS, card["dbPath"])})}
        assert known <= set(answer["category"])


def test_a_narrow_window_draws_every_arrow_with_an_end_in_it(served_cards):
    page, database, cards = served_cards
    for card in cards:
        category = page.body("timeline", "flow/categoryList", {"rankId": card["rankId"]})["category"][0]
        every = arrows_in_sql(database, card, category, 0, 2**62)
        # 1000 ns around the middle arrow's start: one sampling step per ns, nothing merged
        middle = every[len(every) // 2][4] - card["zero"]
        start, end = middle - 500, middle + 500
        expected = arrows_in_sql(database, card, category, start, end)
        assert expected
        assert events(page, card, category, start, end) == [drawn(row, card) for row in expected]


def test_a_wide_window_draws_one_arrow_per_step_and_pair_of_lanes(served_cards):
    page, database, cards = served_cards
    for card in cards:
        merged = 0
        for category in page.body("timeline", "flow/categoryList", {"rankId": card["rankId"]})["category"]:
            every = arrows_in_sql(database, card, category, 0, 2**62)
            end = max(max(row[4], row[8]) for row in every) - card["zero"]
            kept = sampled(every, card, 0, end)
            assert events(page, card, category, 0, end) == kept
            merged += len(every) - len(kept)
        # the whole card on 1000 steps: arrows of one step and lanes are drawn once
        assert merged > 0


def test_locked_lanes_keep_the_arrows_ending_on_them_in_the_locked_range(served_cards):
    page, database, cards = served_cards
    card = cards[0]
    every = arrows_in_sql(database, card, "async_task_queue", 0, 2**62)
    thread, process = every[0][6], every[0][7]
    lock_start = every[len(every) // 4][8] - card["zero"]
    lock_end = every[len(every) // 2][8] - card["zero"]
    lane = {"tid": str(thread), "pid": str(process), "metaType": "TEXT", "rankId": card["rankId"]}
    locked = [row for row in every if any(t == thread and lock_start <= ts - card["zero"] <= lock_end
                                          for t, ts in ((row[2], row[4]), (row[6], row[8])))]
    end = max(max(row[4], row[8]) for row in every) - card["zero"]
    answer = events(page, card, "async_task_queue", 0, end, metadataList=[lane], lockStartTime=lock_start,
                    lockEndTime=lock_end)
    assert answer == sampled(locked, card, 0, end)
    assert 0 < len(answer) < len(sampled(every, card, 0, end))
    # the lane is not on the rank db's card: its arrows are limited to nothing there
    db_card = cards[1]
    category = page.body("timeline", "flow/categoryList", {"rankId": db_card["rankId"]})["category"][0]
    assert events(page, db_card, category, 0, end) and not events(
        page, db_card, category, 0, end, metadataList=[{**lane, "rankId": db_card["rankId"]}],
        lockStartTime=lock_start, lockEndTime=lock_end)
