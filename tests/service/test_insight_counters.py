"""Counter lanes on the Timeline: declared in parse/success, plotted with unit/counter, through
``warehouse serve --insight-port``.

The real text export of test_insight_search.py (its trace's 'C' events: HBM, LLC, NPU MEM, AI Core Freq,
...) is imported over a real WebSocket; its counter lanes are checked against the warehouse's counter
series, then each is asked as the frontend's CounterUnit asks it (Ascend/msinsight
``modules/timeline/src/insight/units/AscendUnit.tsx``, ``cache/simplecache.ts`` requestCounterData), answers
in the shape of ``server/src/modules/timeline/protocol/TimelineProtocolUtil.cpp``
ToResponseJson<UnitCounterResponse>, values checked against SQL on the warehouse's counter view.
"""

from __future__ import annotations

import pytest

from test_insight_search import served_cards  # noqa: F401 - a fixture
from test_insight_timeline import TIMELINE_INPUTS, sql

pytestmark = pytest.mark.slow

SERIES = ("SELECT c.process_id, c.name, c.id FROM counter_track AS c JOIN process AS p ON p.id = c.process_id "
          f"WHERE p.source_id IN ({TIMELINE_INPUTS}) ORDER BY c.id")


def event_and_arg(name: str) -> tuple[str, str]:
    return tuple(name.rsplit(".", 1)) if "." in name else (name, name)


def lanes_in_sql(database, card: dict) -> dict[tuple[str, str], list[str]]:
    """(process id, event name) -> its args, of the card's counter series."""
    found: dict[tuple[str, str], list[str]] = {}
    for process, name, _ in sql(database, SERIES, card["dbPath"]):
        event, arg = event_and_arg(name)
        found.setdefault((str(process), event), []).append(arg)
    return found


def plotted_in_sql(database, card: dict, lane: dict, start: int, end: int) -> list[dict]:
    """What the lane plots over [start, end] (relative): per time every arg's value, a time kept where the
    values change, the last time again at the end."""
    values: dict[int, dict] = {}
    for process, name, track in sql(database, SERIES, card["dbPath"]):
        event, arg = event_and_arg(name)
        if (str(process), event) != (lane["processId"], lane["threadName"]):
            continue
        for ts, value in sql(database, "SELECT ts, value FROM counter WHERE track_id = ? AND ts BETWEEN ? AND ? "
                                       "ORDER BY ts", track, start + card["zero"], end + card["zero"]):
            values.setdefault(ts - card["zero"], {})[arg] = value
    plotted, previous = [], None
    for ts in sorted(values):
        if values[ts] != previous:
            plotted.append({"timestamp": ts, "value": values[ts]})
            previous = values[ts]
    last = max(values)
    return [*plotted, {"timestamp": last, "value": values[last]}]


def counter(page, card: dict, lane: dict, start: int, end: int) -> dict:
    return page.body("timeline", "unit/counter", {
        "rankId": card["rankId"], "dbPath": card["dbPath"], "pid": lane["processId"], "threadName": lane["threadName"],
        "threadId": lane["threadId"], "metaType": lane["metaType"], "startTime": start, "endTime": end,
        "timePerPx": 1000})


def test_the_text_exports_counter_events_are_its_counter_lanes(served_cards):
    _, database, cards = served_cards
    text_card, db_card = cards
    declared = {(lane["processId"], lane["threadName"]): lane["dataType"] for lane in text_card["counters"]}
    assert declared == lanes_in_sql(database, text_card)
    assert {"HBM", "LLC", "NPU MEM", "AI Core Freq"} <= {
        name for (name,) in sql(database, "SELECT name FROM process WHERE id IN "
                                          f"({','.join(lane['processId'] for lane in text_card['counters'])})")}
    assert all((lane["threadId"], lane["maxDepth"], lane["metaType"]) == ("", 0, "TEXT")
               for lane in text_card["counters"])
    # a rank db's device counters have no process in the warehouse: no counter lane (the module docstring)
    assert db_card["counters"] == [] and lanes_in_sql(database, db_card) == {}


def test_each_counter_lane_plots_its_values_where_they_change(served_cards):
    page, database, cards = served_cards
    card = cards[0]
    end = max(ts for (ts,) in sql(database, "SELECT max(ts) FROM counter")) - card["zero"]
    changed = 0
    for lane in card["counters"]:
        expected = plotted_in_sql(database, card, lane, 0, end)
        assert counter(page, card, lane, 0, end) == {"data": expected}
        changed += len(expected)
    assert changed > 2 * len(card["counters"])


def test_a_counter_sampled_before_the_first_slice_is_drawn_from_time_zero(served_cards):
    """The export samples AI Core Freq (1800 MHz) ~105 ms before its first slice and again after its last end: the
    card's time zero is that sample, as the real text timeline's extent covers its counters
    (TextSqlConstant.h QUERY_EXETREME_TIME_SQL), so the lane plots both samples, not none."""
    page, database, cards = served_cards
    card = cards[0]
    lane = next(lane for lane in card["counters"] if lane["threadName"] == "AI Core Freq")
    first_slice = sql(database, "SELECT min(sl.ts) FROM slice AS sl JOIN thread AS t ON t.id = sl.thread_id "
                                f"WHERE t.source_id IN ({TIMELINE_INPUTS})", card["dbPath"])[0][0]
    assert first_slice - card["zero"] > 100_000_000
    answer = counter(page, card, lane, 0, first_slice - card["zero"])["data"]
    assert answer == [{"timestamp": 0, "value": {"MHz": 1800.0}}, {"timestamp": 0, "value": {"MHz": 1800.0}}]


def test_a_window_plots_only_its_samples(served_cards):
    page, database, cards = served_cards
    card = cards[0]
    lane = max(card["counters"], key=lambda lane: len(plotted_in_sql(database, card, lane, 0, 2**61)))
    every = plotted_in_sql(database, card, lane, 0, 2**61)
    start, end = every[len(every) // 4]["timestamp"], every[len(every) // 2]["timestamp"]
    answer = counter(page, card, lane, start, end)["data"]
    assert answer == plotted_in_sql(database, card, lane, start, end)
    assert all(start <= item["timestamp"] <= end for item in answer) and len(answer) < len(every)


def test_an_unknown_counter_lane_is_refused(served_cards):
    page, _, cards = served_cards
    card = cards[0]
    answer = page.send("timeline", "unit/counter", {"rankId": card["rankId"], "pid": card["counters"][0]["processId"],
                                                    "threadName": "no such counter", "startTime": 0, "endTime": 1})
    assert answer["result"] is False and "no such counter" in answer["error"]["message"]
