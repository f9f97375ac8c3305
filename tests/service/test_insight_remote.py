"""remote/reset, remote/delete and create/curve through ``warehouse serve --insight-port``.

The real 2-rank db export (level1) is imported over a real WebSocket; cards are taken off the page as
the Timeline's remoteDeleteRequest does (Ascend/msinsight ``modules/timeline/src/connection/handler.ts``:
``rankId`` and ``dbPaths`` lists), the workspace cleared as resetTimeline does
(``modules/framework/src/utils/Request.ts``), and a lane's slice made a line chart as findLineChart
does (``modules/timeline/src/actions/actionGenerateCurve.ts``). The extents answered are checked
against SQL on the warehouse's slices, the curve names against the real server's
(``server/src/modules/timeline/handler/RemoteDeleteHandler.cpp``, ``ResetWindowHandler.cpp``,
``CreateCurveHandler.cpp``).
"""

from __future__ import annotations

import shutil

import pytest

from test_insight_timeline import extent_in_sql, imported, lanes, opened, sql
from test_insight_ws import empty, root  # noqa: F401 - fixtures

pytestmark = pytest.mark.slow

DB_RUN = "msinsight/pytorch/db/level1"


def extent(database, card: dict) -> int:
    first, last = extent_in_sql(database, card["dbPath"])
    return last - first


def delete(page, *cards: dict) -> dict:
    return page.body("timeline", "remote/delete", {"rankId": [card["rankId"] for card in cards],
                                                   "dbPaths": [card["dbPath"] for card in cards]})


def aliases(page, since: int) -> list[str]:
    return [event["body"]["unit"]["metadata"]["cardAlias"] for event in page.events[since:]
            if event["event"] == "parse/success"]


def test_deleting_cards_answers_the_extent_of_the_cards_left_and_reset_forgets_all(empty, root, realdata):
    run = root / "level1"
    shutil.copytree(realdata / DB_RUN, run)
    with opened(empty, root, run) as (page, body):
        rank0, rank1 = body["result"]
        extents = [extent(empty, rank0), extent(empty, rank1)]
        assert extents[0] != extents[1]
        page.body("timeline", "unit/setCardAlias", {"rankId": rank1["rankId"], "dbPath": rank1["dbPath"],
                                                    "cardAlias": "slow one"})
        assert delete(page, rank1) == {"startTimeUpdated": True, "maxTimeStamp": extents[0]}
        # a card already taken off stays off; with none left there is no extent
        assert delete(page, rank0) == {"startTimeUpdated": False, "maxTimeStamp": 0}
        # imported again, both are back, the alias of the one deleted forgotten
        since = len(page.events)
        imported(page, run)
        assert aliases(page, since) == ["", ""]
        assert delete(page, rank0) == {"startTimeUpdated": True, "maxTimeStamp": extents[1]}
        # reset forgets every choice of the connection: aliases, baselines, cards taken off
        page.body("timeline", "unit/setCardAlias", {"rankId": rank1["rankId"], "dbPath": rank1["dbPath"],
                                                    "cardAlias": "kept?"})
        page.body("global", "global/setBaseline", {"projectName": "p", "filePath": rank1["rankId"]})
        assert page.body("timeline", "remote/reset", {}) == {}
        assert delete(page, rank1) == {"startTimeUpdated": True, "maxTimeStamp": extents[0]}
        since = len(page.events)
        imported(page, run)
        assert aliases(page, since) == ["", ""]
        # the warehouse itself is untouched: the next connection's import answers the same cards
        assert sql(empty, "SELECT count(*) FROM source WHERE path IN (?, ?)", rank0["dbPath"], rank1["dbPath"]) == [
            (2,)]
        # rankId must be a list of card ids
        answer = page.send("timeline", "remote/delete", {"rankId": rank0["rankId"]})
        assert answer["result"] is False and "rankId" in answer["error"]["message"]


def test_a_line_chart_is_named_after_the_slice_and_its_lane(empty, root, realdata):
    run = root / "level1"
    shutil.copytree(realdata / DB_RUN, run)
    with opened(empty, root, run) as (page, body):
        card = body["result"][0]
        event = next(e["body"] for e in page.events if e["event"] == "parse/success" and e["body"]["dbPath"]
                     == card["dbPath"])
        named = [(process, thread, name) for process, thread in lanes(event)
                 for name, in sql(empty, "SELECT name FROM slice WHERE thread_id = ? ORDER BY ts LIMIT 1",
                                  int(thread["threadId"]))]
        process, thread, name = next(lane for lane in named if lane[2].replace("_", "").isalnum())
        other, _, spaced = next(lane for lane in named if " " in lane[2] or "(" in lane[2])

        def curve(x: str, kind: str, lane: dict = thread, pid: str = process["processId"]) -> dict:
            return page.send("timeline", "create/curve", {"fileId": card["rankId"], "pid": pid,
                                                          "tid": lane["threadId"], "x": x, "type": kind})

        assert curve(name, "1")["body"] == {"curveName": f"{name}_{thread['threadId']}_curve"}
        assert curve(name, "2")["body"] == {"curveName": f"{name}_bubble_{thread['threadId']}_curve"}
        assert curve(name, "3")["body"] == {"curveName": ""}
        # a name the real server cannot put in SQL is refused, and so is a lane of another process or card
        for answer in (curve(spaced, "1"), curve(name, "1", pid=other["processId"])
                       if other["processId"] != process["processId"] else curve("a--b", "1")):
            assert answer["result"] is False
        rank1 = body["result"][1]
        answer = page.send("timeline", "create/curve", {"fileId": rank1["rankId"], "pid": process["processId"],
                                                        "tid": thread["threadId"], "x": name, "type": "1"})
        assert answer["result"] is False and "not part of card" in answer["error"]["message"]
