"""The Expert System View's "Operator Dispatch" (advisor/operatorDispatch) through ``warehouse serve``'s WebSocket.

The page (modules/timeline ``components/detailViews/ExpertSystemView.tsx`` OperatorDispatch, ``api/request.ts``
queryOperatorDispatch) asks a page of a rank card's run-time operator compilations with ``rankId``,
``dbPath``, ``current``, ``pageSize``, ``orderBy``, ``order``, ``startTime``, ``endTime``. The real server
(``server/src/modules/advisor/process/OperatorDispatchAdvisor.cpp``) lists the CANN API calls
``aclopCompileAndExecute`` once there are at least 20 of them, each with its advice
(ToResponseJson<OperatorDispatchResponse>); the rows equal the named query ``insight_operator_dispatch``'s.

The real samples compile 19 operators at run time per rank (their CANN_API, their trace's CANN process): one
short of the pattern, so nothing is listed. The same real text rank with one more compilation planted in its
trace makes it: all 20 are listed.
"""

from __future__ import annotations

import gzip
import json
import shutil
import sqlite3
from decimal import Decimal

import pytest

from test_insight_cluster import named
from test_insight_timeline import DB_RUN, opened, sql
from test_insight_ws import Page, empty, root  # noqa: F401 - empty and root are fixtures

# each test runs `warehouse serve` in a child process: seconds each
pytestmark = pytest.mark.slow

TEXT_LEVEL1_RANK = "msinsight/pytorch/text/level1/rank0_ascend_pt"
COMPILE = "aclopCompileAndExecute"
NOTE = ("Please use `torch_npu.npu.set_compile_mode(jit_compile=False)` to disable jit compile in dynamic shape "
        "usage.")
ROW_KEYS = {"id", "rankId", "startTime", "duration", "pid", "tid", "depth", "name", "note"}


def dispatch(page: Page, card: dict, **asked) -> dict:
    params = {"rankId": card["rankId"], "dbPath": card["dbPath"], "current": 1, "pageSize": 10, "orderBy": "",
              "order": "", "startTime": 0, "endTime": 0, **asked}
    return page.body("advisor", "advisor/operatorDispatch", params)


def compilations(database, card: dict, **params) -> list[dict]:
    """The rank's compilations by the named query (run 1: each test imports one run)."""
    [rank] = [row[0] for row in sql(database, "SELECT rank_id FROM source WHERE path = ?", card["dbPath"])]
    return named(database, "insight_operator_dispatch", run_id=1, rank_id=rank, **params)


def test_the_real_ranks_compile_one_operator_too_few(empty, root, realdata):
    run = root / "level0"
    shutil.copytree(realdata / DB_RUN, run)
    with opened(empty, root, run) as (page, body):
        for card in body["result"]:
            # 19 aclopCompileAndExecute calls in the rank db's CANN_API: each one is found ...
            raw = sqlite3.connect(f"file:{card['dbPath']}?immutable=1", uri=True)
            try:
                [(count,)] = raw.execute("SELECT count(*) FROM CANN_API AS c JOIN STRING_IDS AS s ON s.id = c.name "
                                         "WHERE s.value = ?", (COMPILE,)).fetchall()
            finally:
                raw.close()
            found = compilations(empty, card, threshold=1)
            assert len(found) == count == 19 and {row["name"] for row in found} == {COMPILE}
            # ... and they are one short of the real server's 20: no row, the answer empty
            assert compilations(empty, card) == []
            assert dispatch(page, card) == {"count": 0, "dbPath": card["dbPath"], "data": []}
        # a page before the first, a range ending before it starts: refused, as the real server's checks
        for wrong in ({"current": -1}, {"startTime": 10, "endTime": 5}):
            refused = page.send("advisor", "advisor/operatorDispatch", {
                "rankId": body["result"][0]["rankId"], "pageSize": 10, "current": 1, **wrong})
            assert refused["result"] is False


def plant_one_more(trace) -> dict:
    """One more compilation in a trace_view.json.gz: a copy of its first one, right after the last one on the same
    thread; the event planted."""
    with gzip.open(trace, "rt") as text:
        events = json.load(text)
    found = [event for event in events if event.get("name", "").endswith(COMPILE)]
    last = max(found, key=lambda event: Decimal(str(event["ts"])))
    planted = {**found[0], "ts": str(Decimal(str(last["ts"])) + Decimal(str(last["dur"])) + 5), "dur": 7.25}
    events.append(planted)
    with gzip.open(trace, "wt") as text:
        json.dump(events, text)
    return planted


def test_twenty_compilations_are_listed_with_the_advice(empty, root, realdata):
    rank = root / "rank0_ascend_pt"
    shutil.copytree(realdata / TEXT_LEVEL1_RANK, rank)
    trace = rank / "ASCEND_PROFILER_OUTPUT" / "trace_view.json.gz"
    planted = plant_one_more(trace)
    with opened(empty, root, rank) as (page, body):
        [card] = body["result"]
        found = compilations(empty, card)
        assert len(found) == 20 and {row["name"] for row in found} == {f"AscendCL@{COMPILE}"}
        [success] = [event["body"] for event in page.events if event["event"] == "parse/success"]
        zero = int(success["startTime"])
        # the planted call is the last, 7.25 us long
        assert (found[-1]["dur"], found[-1]["ts"]) == (7250, int(Decimal(planted["ts"]) * 1000))
        expected = [{"id": str(row["slice_id"]), "rankId": card["rankId"], "startTime": row["ts"] - zero,
                     "duration": row["dur"], "pid": str(row["process_id"]), "tid": str(row["thread_id"]),
                     "depth": row["depth"], "name": row["name"], "note": NOTE} for row in found]

        # the whole card, longest first (no orderBy: duration, descending): two pages of ten
        first = dispatch(page, card)
        assert (first["count"], first["dbPath"]) == (20, card["dbPath"]) and set(first["data"][0]) == ROW_KEYS
        by_duration = sorted(expected, key=lambda row: row["duration"], reverse=True)
        assert first["data"] == by_duration[:10]
        assert dispatch(page, card, current=2)["data"] == by_duration[10:]
        # by start, ascending
        assert dispatch(page, card, orderBy="startTime", order="ascend", pageSize=20)["data"] == expected
        # each lane is one parse/success declared
        lanes = {(process["metadata"]["processId"], thread["metadata"]["threadId"])
                 for process in success["unit"]["children"] for thread in process["children"]}
        assert {(row["pid"], row["tid"]) for row in expected} <= lanes
        # a row clicked is found on the timeline (handleAdvisorSelected: unit/one/kernelDetail)
        row = expected[0]
        located = page.body("timeline", "unit/one/kernelDetail", {
            "rankId": card["rankId"], "dbPath": card["dbPath"], "name": row["name"], "timestamp": row["startTime"],
            "duration": row["duration"]})
        assert (located["id"], located["pid"], located["threadId"]) == (row["id"], row["pid"], row["tid"])

        # a time range holding all but the planted one: 19, no pattern (the rule counts the range's calls)
        narrowed = {"startTime": 0, "endTime": expected[-1]["startTime"] - 1}
        assert compilations(empty, card, start_ns=zero, end_ns=zero + narrowed["endTime"]) == []
        assert dispatch(page, card, **narrowed)["count"] == 0
        # a range holding all 20
        whole = {"startTime": expected[0]["startTime"], "endTime": expected[-1]["startTime"]}
        assert dispatch(page, card, **whole)["count"] == 20
