"""import/action over the WebSocket answers at once and parses in the background, as the real server.

Ascend/msinsight's ``server/src/modules/timeline/handler/ImportActionHandler.cpp`` answers with the
cards, then its parsers push ``parse/progress`` per card (``full_db/PaserFactory.cpp``
ParseProgressCallBack; shape ``timeline/protocol/TimelineProtocolUtil.cpp``
ToEventJson<ParseProgressEvent>: fileId, parsedSize, totalSize, progress) and ``parse/success`` once
a card is parsed; the page keeps sending requests meanwhile (``global/cancelBaseline`` right after
the import: ``modules/framework``), which must not wait for the parse. Driven with a real client
against a real ``warehouse serve`` on loopback; the import is a big synthetic trace, long enough
to be seen running.
"""

from __future__ import annotations

import json
import urllib.request

import pytest
from websockets.sync.client import connect

from test_insight_ws import Page, empty, root, serving  # noqa: F401 - empty and root are fixtures
from warehouse import db
from warehouse.synth.trace_json import write_trace

pytestmark = pytest.mark.slow

#: events of the synthetic trace: seconds to ingest here, many MB to read
EVENTS = 200_000


@pytest.fixture
def big(root):
    path = root / "big" / "trace_view.json"
    path.parent.mkdir()
    write_trace(path, EVENTS)
    return path


def frames_until_parsed(socket) -> list[dict]:
    """Every frame until the first parse/success or parse/fail (included)."""
    frames = []
    while not frames or frames[-1].get("event") not in ("parse/success", "parse/fail"):
        frames.append(json.loads(socket.recv(timeout=120)))
    return frames


def request(socket, request_id: int, module: str, command: str, params: dict) -> None:
    socket.send(json.dumps({"id": request_id, "moduleName": module, "type": "request", "command": command,
                            "fileId": "", "projectName": "p", "params": params}))


def test_the_answer_and_later_requests_come_before_the_parse_ends(empty, root, big):
    card = str(big)
    with serving(empty, root) as (url, rest), connect(url) as socket:
        request(socket, 0, "timeline", "import/action", {"projectName": "p", "path": [card], "projectAction": 0,
                                                         "isConflict": False})
        request(socket, 1, "global", "global/cancelBaseline", {"projectName": "p"})
        request(socket, 2, "timeline", "import/action", {"projectName": "q", "path": [card]})
        frames = frames_until_parsed(socket)
        # then the same import again: the warehouse holds it, so it is answered after its (empty) ingest
        page = Page(socket)
        page.next_id = 3
        again = page.body("timeline", "import/action", {"projectName": "p", "path": [card]})
    kinds = [(frame["type"], frame.get("requestId", frame.get("event"))) for frame in frames]
    # the import's answer first (its card, before anything was read), then the request sent after it
    assert kinds[:2] == [("response", 0), ("response", 1)]
    imported, cancelled = frames[0], frames[1]
    assert imported["result"] is True and cancelled["result"] is True and cancelled["body"] == {}
    assert imported["body"]["result"] == [{
        "cardName": card, "rankId": card, "cardPath": f"Directory: {big.parent.parent.name}", "result": True,
        "dbPath": card, "cluster": "", "projectType": 5, "dataPathList": [str(big.parent)], "host": ""}]
    # the same answer as once the file is in (the answer after the ingest)
    assert again["result"] == imported["body"]["result"]
    assert {k: v for k, v in again.items() if k != "children"} == {
        k: v for k, v in imported["body"].items() if k != "children"}
    # a second import while the first is parsed: refused, answered at once, naming why
    refused = frames[2]
    assert (refused["requestId"], refused["result"]) == (2, False)
    assert "still being parsed" in refused["error"]["message"]
    conn = db.connect_readonly(empty)  # and left no project "q" in the explorer's records
    try:
        assert conn.execute("SELECT DISTINCT project FROM insight_project_import").fetchall() == [("p",)]
    finally:
        conn.close()
    # progress while the file is read: growing figures of the card's bytes, the last one all of it
    progress = [frame["body"] for frame in frames if frame.get("event") == "parse/progress"]
    assert len(progress) >= 3
    size = big.stat().st_size
    assert {(p["fileId"], p["totalSize"]) for p in progress} == {(card, size)}
    parsed = [p["parsedSize"] for p in progress]
    assert parsed == sorted(parsed) and len(set(parsed)) == len(parsed) and parsed[-1] == size
    assert max(parsed[:-1]) < size  # the last byte counts once the file is in
    assert [p["progress"] for p in progress] == [p * 100 // size for p in parsed] and progress[-1]["progress"] == 100
    assert all(frame["type"] == "event" for frame in frames[3:])
    # then the card's lanes: the same event as an import answered after its ingest sends (the import again)
    success = frames[-1]
    assert (success["event"], success["moduleName"]) == ("parse/success", "timeline")
    assert success["body"]["unit"]["metadata"]["cardId"] == card
    assert [event["body"] for event in page.events if event["event"] == "parse/success"] == [success["body"]]
    # the parse/success is followed by parse/heatmapCompleted (a lone trace gives no MoE heat map), read
    # before the second import's answer
    assert [event["body"] for event in page.events if event["event"] == "parse/heatmapCompleted"] == [
        {"parseResult": False, "errorMsg": ""}]


def test_a_stateless_import_answers_after_its_ingest(empty, root, big):
    """POST /api/v1/insight has no event channel: its answer comes once the file is in."""
    with serving(empty, root) as (url, rest):
        body = json.dumps({"id": 1, "moduleName": "timeline", "type": "request", "command": "import/action",
                           "params": {"path": [str(big)]}}).encode()
        with urllib.request.urlopen(urllib.request.Request(
                rest + "/insight", body, {"Content-Type": "application/json"}), timeout=120) as response:
            answer = json.load(response)
        with connect(url) as socket:
            page = Page(socket)
            explorer = page.body("global", "files/getProjectExplorer", {})
    assert answer["result"] is True and [card["rankId"] for card in answer["body"]["result"]] == [str(big)]
    # the file was in when the answer came: a page opened afterwards lists its card
    assert explorer["projectDirectoryList"][0]["fileName"] == [str(big)]


def test_a_failing_file_fails_its_card_only(empty, root):
    """Two lone traces in two folders: two cards answered at once; the good one's parse/success, the bad one's
    parse/fail naming the file with the warehouse's reason."""
    good, bad = root / "a" / "trace_view.json", root / "b" / "trace_view.json"
    good.parent.mkdir()
    bad.parent.mkdir()
    write_trace(good, 1_000)
    bad.write_text('[{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 2}, {"ph": ')
    with serving(empty, root) as (url, rest), connect(url) as socket:
        page = Page(socket)
        body = page.body("timeline", "import/action", {"projectName": "p", "path": [str(root)]})
        assert page.body("global", "heartCheck", {}) == {}
    assert [(card["rankId"], card["result"]) for card in body["result"]] == [(str(good), True), (str(bad), True)]
    conn = db.connect_readonly(empty)
    try:
        [(reason,)] = conn.execute("SELECT error FROM source WHERE path = ? AND status = 'failed'",
                                   (str(bad),)).fetchall()
    finally:
        conn.close()
    assert reason.startswith(f"{bad}: ")
    # the failure is told before allPagesSuccess and the heat map's event, which close every import
    success, failure, all_pages, heatmap = page.events
    assert (all_pages["event"], heatmap["event"]) == ("allPagesSuccess", "parse/heatmapCompleted")
    assert [offset["cardId"] for offset in all_pages["body"]["cardOffsets"]] == [str(good)]
    assert (success["event"], success["body"]["unit"]["metadata"]["cardId"]) == ("parse/success", str(good))
    assert (failure["event"], failure["body"]) == ("parse/fail", {"rankId": str(bad), "error": reason})
