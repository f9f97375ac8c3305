"""The System View's Expert Analysis and drill-downs, and parse/cards, through ``warehouse serve --insight-port``.

The real text export and rank db of test_insight_search.py (rank 0, level1: the db's AICORE_FREQ table, the
trace's "AI Core Freq" counter) are imported over a real WebSocket; each card is asked as the frontend asks
(Ascend/msinsight ``modules/timeline/src/components/detailViews/ExpertSummary.tsx`` with ``api/request.ts``
queryExpertAnalysis: ``rankId``, ``dbPath``; ``OverallMetrics.tsx`` useMetricsMoreUpdater: ``categoryList`` of
the row clicked; ``TableDataView.tsx`` with ``Common.tsx`` queryTableDataDetails: ``selectKey``,
``currentPage``, ``pageSize``; ``FtraceTaskSummary.tsx`` with ``Common.tsx`` queryFtraceStat;
``components/TimeMakerAxis.tsx`` parseCards: ``cards``, ``dbPaths``). Answers in the shapes of
``server/src/modules/timeline/protocol/TimelineProtocolUtil.cpp`` (ExpAnaAICoreFreqResponse,
TableDataDetailResponse, SystemViewFtraceStatResponse, ParseCardsResponse); the frequency figures equal the
named query ``insight_aicore_freq`` and SQL on the warehouse's counter series.
"""

from __future__ import annotations

import json

import pytest

from test_insight_cluster import named
from test_insight_search import served_cards  # noqa: F401 - a fixture
from test_insight_timeline import TIMELINE_INPUTS, sql

pytestmark = pytest.mark.slow

#: the card's AI Core frequency samples: a rank db's AICORE_FREQ table, a trace's "AI Core Freq" counter
FREQ_IN_SQL = ("SELECT count(*), max(c.value), min(c.value) FROM counter AS c JOIN counter_track AS t "
               f"ON t.id = c.track_id WHERE t.source_id IN ({TIMELINE_INPUTS}) "
               "AND (t.name = 'AI Core Freq.MHz' OR t.name LIKE 'device%.aicore_freq')")


def rank_of(database, card: dict) -> dict:
    ((run_id, rank_id),) = sql(database, "SELECT run_id, rank_id FROM source WHERE path = ?", card["dbPath"])
    return {"run_id": run_id, "rank_id": rank_id}


def test_expert_analysis_tells_the_ai_core_frequency_drop(served_cards):
    page, database, cards = served_cards
    for card in cards:
        answer = page.body("timeline", "expertAnalysis/AICoreFreq", {"rankId": card["rankId"],
                                                                     "dbPath": card["dbPath"]})
        assert set(answer) == {"rankId", "pid", "tid", "hasProblem", "percent"}
        (expected,) = named(database, "insight_aicore_freq", **rank_of(database, card))
        samples, highest, lowest = sql(database, FREQ_IN_SQL, card["dbPath"])[0]
        # both inputs hold their samples: 3 in the db's table, 2 in the trace, all at 1800 MHz
        assert (expected["samples"], expected["max_mhz"], expected["min_mhz"]) == (samples, highest, lowest)
        assert samples in (2, 3) and highest == lowest == 1800
        assert answer["percent"] == expected["percent"] == int(100 * (highest - lowest) / highest) == 0
        assert answer["hasProblem"] is (expected["percent"] > 5) is False
        assert (answer["rankId"], answer["tid"]) == (card["rankId"], "")
        if card["metaType"] == "TEXT":
            # the link jumps to the trace's frequency lane, as parse/success declared it
            (lane,) = [lane for lane in card["counters"] if lane["threadName"] == "AI Core Freq"]
            assert answer["pid"] == lane["processId"] == str(expected["process_id"])
        else:
            assert answer["pid"] == "AI Core Freq" and expected["process_id"] is None
    answer = page.send("timeline", "expertAnalysis/AICoreFreq", {"rankId": "no-such-card"})
    assert answer["result"] is False and "no-such-card" in answer["error"]["message"]


def test_the_drill_downs_answer_as_the_real_server_for_what_the_card_holds(served_cards):
    page, _, cards = served_cards
    for card in cards:
        params = {"rankId": card["rankId"], "dbPath": card["dbPath"]}
        # a first-level row has no operator list (the frontend sends none for it); the overall has no level below
        for categories in ([], ["Computing Time"], ["Computing Time", "Other"]):
            answer = page.send("timeline", "systemView/overall/more/details", {
                **params, "categoryList": categories, "order": "descend", "orderBy": "duration", "pageSize": 10,
                "current": 1, "startTime": 0, "endTime": 0})
            assert answer["result"] is False and "categor" in answer["error"]["message"]
        # no declared table: every page is empty
        detail = page.body("timeline", "tableData/detail", {"rankId": card["rankId"], "pageSize": 10,
                                                            "currentPage": 1, "selectKey": 0})
        assert detail == {"totalNum": 0, "tableData": [], "columnAttr": []}
        ftrace = page.send("timeline", "systemView/systemViewFtraceStat", {
            **params, "current": 1, "pageSize": 10, "orderBy": "running", "order": "descend", "startTime": 0,
            "endTime": 0, "filterCondition": [json.dumps({"columnName": "comm", "value": "python"})]})
        if card["metaType"] == "TEXT":
            assert ftrace["result"] is True
            assert ftrace["body"] == {"data": [], "current": 1, "pageSize": 10, "count": 0}
        else:
            assert ftrace["result"] is False and "database export" in ftrace["error"]["message"]
    # the real server's parameter checks
    answer = page.send("timeline", "systemView/systemViewFtraceStat", {"rankId": cards[0]["rankId"], "current": 0,
                                                                      "pageSize": 10})
    assert answer["result"] is False and "current" in answer["error"]["message"]
    answer = page.send("timeline", "systemView/systemViewFtraceStat", {
        "rankId": cards[0]["rankId"], "current": 1, "pageSize": 10,
        "filterCondition": [json.dumps({"columnName": "running", "value": "1"})]})
    assert answer["result"] is False and "filterCondition" in answer["error"]["message"]


def test_parse_cards_has_nothing_pending(served_cards):
    page, _, cards = served_cards
    answer = page.body("timeline", "parse/cards", {"cards": [card["rankId"] for card in cards],
                                                   "dbPaths": [card["dbPath"] for card in cards]})
    assert answer == {"isContinueParse": True}
    assert page.events == []  # nothing is parsed again: no event follows
    answer = page.send("timeline", "parse/cards", {"cards": "not a list", "dbPaths": []})
    assert answer["result"] is False and "cards" in answer["error"]["message"]
