"""``warehouse serve --insight-port``: MindStudio Insight's web frontend's WebSocket, driven with a real
client (websockets' sync client) against the real process, through the frontend's command sequence.

Shapes are the real server's (Ascend/msinsight): the envelope of ``server/src/protocol/ProtocolUtil.cpp``
(SetResponseJsonBaseInfo), the project commands of ``server/src/modules/global/protocol/GlobalProtocolUtil.cpp``
and ``GlobalProtocol.cpp`` (moduleConfig/get), the import answer of
``server/src/modules/timeline/protocol/TimelineProtocolUtil.cpp`` (ImportActionResponse), the operator
views of ``server/src/modules/source/protocol/SourceProtocolUtil.cpp`` (always compare/baseline/diff),
``parser/DetailsMemoryParser.cpp`` (numbers as written, unit codes) and ``parser/SourceInstructionParser.cpp``.
"""

from __future__ import annotations

import contextlib
import json
import socket as socket_module
import subprocess
import sys
import urllib.request

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from factories.op_profile import CODE_PATH, CORES, OpProfileFactory
from factories.trace_json import EventFactory, TraceFileFactory
from server_process import served
from warehouse import db

# each test runs `warehouse serve` in a child process and the frontend's sequence over its socket: seconds each
pytestmark = pytest.mark.slow

STARTUP_TIMEOUT_S = 30
REAL_PROFILE = "msinsight/server_test_data/test_bin_mix/visualize_data.bin"
REAL_NAME = "MatmulLeakyreluCustom_0a4ecf73240c8db04ac5059db7c787a7_2_mix_aic"


@contextlib.contextmanager
def serving(db_path, root, token=None):
    """A running ``warehouse serve`` with the WebSocket on a free port: yields its ws:// URL and its REST API's."""
    options = ["--insight-port", "0", "--import-root", str(root)] + (["--token", token] if token else [])
    with served(db_path, *options, timeout_s=STARTUP_TIMEOUT_S) as server:
        assert server.websocket, f"no WebSocket address in what the server said: {server.said!r}"
        yield server.websocket, server.url


class Page:
    """What the frontend does on its socket: ids counting from 0, one JSON object per text frame; the
    events the server pushes between answers are kept in ``events`` (framed as ProtocolUtil.cpp
    SetEventJsonBaseInfo: type, id, event, moduleName, body), ``parse/progress`` apart in ``progress``.
    After an import/action answered with rank cards, it waits (as the page's cards do) until the
    import is parsed: its events come in one batch, so every later answer follows them."""

    def __init__(self, socket):
        self.socket = socket
        self.next_id = 0
        self.events: list[dict] = []
        self.progress: list[dict] = []

    def _frame(self) -> dict:
        """The next frame; an event is kept."""
        frame = json.loads(self.socket.recv(timeout=30))
        if frame.get("type") == "event":
            assert set(frame) == {"type", "id", "event", "moduleName", "body"}, frame
            (self.progress if frame["event"] == "parse/progress" else self.events).append(frame)
        return frame

    def _answer(self) -> dict:
        """The next response, keeping the events that come before it."""
        while True:
            frame = self._frame()
            if frame.get("type") != "event":
                return frame

    def parsed(self, since: int) -> None:
        """Wait for a parse/success or parse/fail after the first ``since`` events (the batch of the
        import's last events)."""
        while not any(event["event"] in ("parse/success", "parse/fail") for event in self.events[since:]):
            frame = self._frame()
            assert frame.get("type") == "event", f"an answer while waiting for the import's events: {frame}"

    def send(self, module: str, command: str, params: dict, project: str = "") -> dict:
        request_id = self.next_id
        self.next_id += 1
        since = len(self.events)
        self.socket.send(json.dumps({"id": request_id, "moduleName": module, "type": "request", "command": command,
                                     "fileId": "", "projectName": project, "params": params}))
        answer = self._answer()
        assert (answer["type"], answer["requestId"], answer["command"], answer["moduleName"]) == (
            "response", request_id, command, module)
        if command == "import/action" and answer["result"] and any(
                card["result"] and card["projectType"] != 1 for card in answer["body"]["result"]):
            self.parsed(since)
        assert isinstance(answer["id"], int) and isinstance(answer["result"], bool)
        return answer

    def body(self, module: str, command: str, params: dict) -> dict:
        answer = self.send(module, command, params)
        assert answer["result"] is True and "error" not in answer, answer
        assert set(answer) == {"type", "id", "requestId", "result", "command", "moduleName", "body"}
        return answer["body"]


@pytest.fixture
def root(tmp_path):
    folder = tmp_path / "root"
    (folder / "op").mkdir(parents=True)
    return folder


@pytest.fixture
def empty(tmp_path):
    path = tmp_path / "warehouse.db"
    db.connect(path).close()
    return path


def open_sequence(page: Page, profile_path) -> dict:
    """The frontend's sequence from connecting to an imported file; the import answer's body."""
    assert page.body("global", "heartCheck", {}) == {}
    assert page.body("global", "moduleConfig/get", {}) == {"configs": []}
    explorer = page.body("global", "files/getProjectExplorer", {})
    assert set(explorer) == {"projectDirectoryList"}
    listing = page.body("global", "files/get", {"path": str(profile_path.parent)})
    assert listing == {"path": str(profile_path.parent.resolve()), "exist": True, "childrenFolders": [],
                       "childrenFiles": [{"name": profile_path.name, "path": str(profile_path.resolve())}]}
    assert page.body("global", "files/get", {"path": str(profile_path)})["exist"] is True
    assert page.body("global", "files/checkProjectValid",
                     {"projectName": "p", "dataPath": [str(profile_path)]}) == {"result": 0}
    imported = page.body("timeline", "import/action", {"projectName": "p", "path": [str(profile_path)],
                                                       "projectAction": 0, "isConflict": False})
    assert page.body("global", "global/cancelBaseline", {"projectName": "p"}) == {}
    return imported


def test_frontend_sequence_on_a_factory_profile(empty, root):
    profile = OpProfileFactory(path=root / "op" / "visualize_data.bin")
    with serving(empty, root) as (url, rest), connect(url + "?port=1") as socket:
        page = Page(socket)
        imported = open_sequence(page, profile.path)
        card = str(profile.path.resolve())
        assert (imported["isBinary"], imported["isSimulation"], imported["isCluster"], imported["isIpynb"],
                imported["isOnlyTraceJson"], imported["isPending"], imported["reset"]) == (
            True, True, False, False, False, False, True)
        assert (imported["coreList"], imported["sourceList"]) == (CORES, [CODE_PATH, "/home/op/b.py"])
        assert imported["hasCachelineRecords"] is True and imported["subdirectoryList"] == []
        # BuildImportActionJson's keys; projectType 1 is BIN (GlobalDefs.h ProjectTypeEnum)
        assert imported["result"] == [{"cardName": "add_custom", "rankId": card, "cardPath": card, "result": True,
                                       "dbPath": card, "cluster": "", "projectType": 1, "dataPathList": [card],
                                       "host": ""}]
        assert (imported["isLeaks"], imported["isIE"], imported["isMultiDevice"], imported["isTriton"]) == (
            False, False, False, False)
        # the profile's trace (block 0x02) gives the card its lanes, heard as a rank card's are (parse/success)
        (event,) = page.events
        check_profile_success(event, empty, card)
        assert event["body"]["unit"]["children"] and event["body"]["startTimeUpdated"] is True
        # and its lanes answer under the card's id: every slice of the first thread, times from the time zero
        lane = event["body"]["unit"]["children"][0]["children"][0]["metadata"]
        traces = page.body("timeline", "unit/threadTraces", {
            "rankId": card, "processId": lane["processId"], "threadId": lane["threadId"], "startTime": 0,
            "endTime": event["body"]["maxTimeStamp"], "timePerPx": 1})
        conn = db.connect_readonly(empty)
        try:
            expected = conn.execute("SELECT depth, name, ts - ?, ts + dur - ? FROM slice WHERE thread_id = ? "
                                    "ORDER BY depth, ts", (int(event["body"]["startTime"]),) * 2
                                    + (int(lane["threadId"]),)).fetchall()
        finally:
            conn.close()
        assert expected and [(depth, r["name"], r["startTime"], r["endTime"]) for depth, rows in
                             enumerate(traces["data"]) for r in rows] == [tuple(row) for row in expected]
        assert imported["children"] == [{"clusterPath": "", "rankId": card, "host": "", "filePath": card,
                                         "type": "COMPUTE", "deviceId": "", "fileDir": "op", "children": []}]
        # the project explorer now lists the card
        assert page.body("global", "files/getProjectExplorer", {}) == {"projectDirectoryList": [
            {"projectName": "p", "fileName": [card], "children": imported["children"]}]}
        views = operator_views(page, imported, {"rankId": card})
        assert views["roofline"]["soc"] == "Ascend910B1"
        assert views["roofline"]["data"][0]["rooflines"][0] == {
            "bw": "1600.5", "bwName": "GM", "computility": "320.0", "computilityName": "Cube FP16",
            "point": ["12.5", "100.25"], "ratio": ""}
        assert views["baseInfo"]["compare"]["name"] == "add_custom"
        assert views["baseInfo"]["compare"]["deviceId"] == "3" and views["baseInfo"]["compare"]["pid"] == "4242"
        assert views["baseInfo"]["baseline"]["name"] == ""
        assert [(s["subCoreName"], s["cycles"]["value"]["compare"])
                for s in views["interCoreLoadAnalysis"]["opDetails"][0]["subCoreDetails"]] == [
            ("vector0", 265838), ("cube0", 267206)]
        chart = views["computeworkload"]["chartData"]["detailDataList"][0]
        assert chart["compare"] == {"blockId": "0", "blockType": "cube0", "name": "Cube All Active", "unit": "PRE",
                                    "value": "11.15", "originValue": "46050.0"}
        assert (chart["baseline"]["value"], chart["diff"]["value"]) == ("-", "-")
        assert [d["compare"] for d in views["queryTopWarpStallReason"]["data"]] == [
            {"name": "WAIT_FLAG", "value": 598}, {"name": "BAR", "value": 12}]
        assert views["code/file"]["fileContent"].startswith('#include "kernel_operator.h"')
        # Line "5" and Cycles "20" are strings under INT columns: 0, as rapidjson's IsInt() says
        assert [(line["Line"], line["Cycles"]) for line in views["api/line/dynamic"]["Lines"]] == [(4, 100), (0, 0)]
        assert [i["Address"] for i in views["api/instructions/dynamic"]["Instructions"]] == ["0x1000", "0x1010"]
        assert views["api/instructions/dynamic"]["Core"] == CORES[0]
        l2 = views["memoryGraph"]["coreMemory"][0]["l2Cache"]
        assert l2["compare"] == {"hitRatio": "90.550110", "hit": "66845", "totalRequest": "73821", "miss": "6976"}
        row = views["memoryTable"]["memoryTable"][0]["tableDetail"][0]["row"][0]
        assert row["compare"] == {"name": "L2 Cache Write", "value": ["21468", "4480", "25948", "82.734695"]}
        assert views["cache/cachelineRecords"]["Cacheline Records"][0]["Cacheline Id"] == 7
        # POST /api/v1/insight answers the same bodies (one dispatcher)
        for command, key in (("source/details/memoryGraph", "memoryGraph"), ("source/details/baseInfo", "baseInfo"),
                             ("source/api/line/dynamic", "api/line/dynamic")):
            params = {"rankId": card, "blockId": "0", "sourceName": CODE_PATH, "coreName": CORES[0]}
            request = urllib.request.Request(f"{rest}/insight", headers={"Content-Type": "application/json"},
                                             data=json.dumps({"id": 1, "moduleName": "source", "type": "request",
                                                              "command": command, "params": params}).encode())
            with urllib.request.urlopen(request, timeout=30) as response:
                assert json.loads(response.read())["body"] == views[key]


def check_profile_success(event: dict, database, card: str) -> None:
    """An operator profile's parse/success: its card, its trace's processes and threads as lanes, its time zero."""
    assert (event["event"], event["moduleName"], event["body"]["unit"]["metadata"]) == (
        "parse/success", "timeline", {"cardId": card, "cardAlias": ""})
    conn = db.connect_readonly(database)
    try:
        threads = conn.execute("SELECT t.id, t.process_id FROM thread AS t JOIN source AS s ON s.id = t.source_id "
                               "WHERE s.path = ?", (card,)).fetchall()
        (first,), = conn.execute("SELECT min(sl.ts) FROM slice AS sl JOIN thread AS t ON t.id = sl.thread_id "
                                 "JOIN source AS s ON s.id = t.source_id WHERE s.path = ?", (card,)).fetchall()
    finally:
        conn.close()
    body = event["body"]
    lanes = {(int(p["metadata"]["processId"]), int(t["metadata"]["threadId"]))
             for p in body["unit"]["children"] for t in p["children"] if t["type"] == "thread"}
    assert lanes == {(process, thread) for thread, process in threads}
    assert body["startTime"] == str(first or 0) and body["dbPath"] == card
    assert body["rankList"] == [{"clusterId": "", "host": "", "rankId": card, "rankName": card, "deviceId": ""}]


def operator_views(page: Page, imported: dict, card: dict) -> dict:
    """The operator views' requests in the frontend's order, module source; their bodies by command."""
    core, source = (imported["coreList"] or [""])[0], (imported["sourceList"] or [""])[0]
    block = {}
    bodies = {}
    for command, params in [
            ("details/roofline", {}), ("details/baseInfo", {"isCompared": False}),
            ("details/interCoreLoadAnalysis", {}), ("details/computeworkload", {"isCompared": False}),
            ("queryTopWarpStallReason", {"isCompared": False}), ("code/file", {"sourceName": source}),
            ("api/line/dynamic", {"sourceName": source, "coreName": core}),
            ("api/instructions/dynamic", {"coreName": core})]:
        if command == "code/file" and not source:
            continue
        bodies[command.split("/")[-1] if command.startswith("details/") else command] = page.body(
            "source", f"source/{command}", {**card, **params})
    block_ids = bodies["computeworkload"]["blockIdList"]
    block = {"blockId": block_ids[0]} if block_ids else {}
    for command in ("details/memoryGraph", "details/memoryTable"):
        bodies[command.split("/")[-1]] = page.body("source", f"source/{command}",
                                                   {**card, **block, "showAs": "request", "isCompared": False})
    if imported["hasCachelineRecords"]:
        bodies["cache/cachelineRecords"] = page.body("source", "source/cache/cachelineRecords", card)
    return bodies


def test_real_profile_through_the_socket(empty, root, realdata):
    real = root / "op" / "visualize_data.bin"
    real.write_bytes((realdata / REAL_PROFILE).read_bytes())
    with serving(empty, root) as (url, rest), connect(url) as socket:
        page = Page(socket)
        imported = open_sequence(page, real)
        card = str(real.resolve())
        assert (imported["isBinary"], imported["isSimulation"], imported["coreList"], imported["sourceList"],
                imported["hasCachelineRecords"]) == (True, False, [], [], False)
        # an on-board profile has no trace: its card is told it is parsed, with no lane (else it shows parsing)
        (event,) = page.events
        check_profile_success(event, empty, card)
        assert (event["body"]["unit"]["children"], event["body"]["startTimeUpdated"],
                event["body"]["maxTimeStamp"]) == ([], False, 0)
        assert imported["result"] == [{"cardName": REAL_NAME, "rankId": card, "cardPath": card, "result": True,
                                       "dbPath": card, "cluster": "", "projectType": 1, "dataPathList": [card],
                                       "host": ""}]
        views = operator_views(page, imported, {"rankId": card})
        info = views["baseInfo"]["compare"]
        assert (info["name"], info["soc"], info["opType"], info["blockDim"], info["mixBlockDim"], info["duration"],
                info["deviceId"], info["pid"]) == (REAL_NAME, "Ascend910B4", "mix", "2", "4", "300.0660095214844",
                                                   "0", "1112422")
        assert views["computeworkload"]["blockIdList"] == ["0", "1"]
        assert views["computeworkload"]["chartData"]["detailDataList"][0]["compare"] == {
            "blockId": "0", "blockType": "cube0", "name": "Cube All Active", "unit": "PRE", "value": "11.15",
            "originValue": "46050.0"}
        l2 = views["memoryGraph"]["coreMemory"][0]["l2Cache"]["compare"]
        assert views["memoryGraph"]["coreMemory"][0]["blockId"] == "0" and set(l2) == {
            "hitRatio", "hit", "totalRequest", "miss"}
        assert views["memoryTable"]["memoryTable"][0]["tableDetail"][0]["row"][0]["compare"] == {
            "name": "L2 Cache Write", "value": ["21468", "4480", "25948", "82.734695"]}
        # the on-board profile has no api.json, roofline or core-load blocks: the real server's empty bodies
        assert views["api/instructions/dynamic"] == {"Instructions": []}
        assert views["api/line/dynamic"] == {"Lines": []}
        assert views["roofline"] == {"soc": "", "advice": "", "data": []}


def test_timeline_of_an_imported_trace(empty, root):
    # a trace's rankId is its path (import/action), accepted by every timeline command (issue 19 item 4);
    # times are relative to its earliest slice (RenderEngine.cpp QueryThreadTraces): 5000 us is 0
    trace = TraceFileFactory(path=root / "op" / "trace_view.json", events=[
        EventFactory(name="step", pid=10, tid=1, ts="5000.000", dur=100.0, cat="python_function"),
        EventFactory(name="matmul", pid=10, tid=1, ts="5010.000", dur=30.0, cat="cpu_op"),
        {"ph": "s", "id": 77, "cat": "async_npu", "name": "launch", "pid": 10, "tid": 1, "ts": "5011.000"},
        EventFactory(name="kernel", pid=20, tid=2, ts="5060.000", dur=20.0, cat="kernel"),
        {"ph": "f", "id": 77, "cat": "async_npu", "name": "launch", "pid": 20, "tid": 2, "ts": "5061.000",
         "bp": "e"}])
    with serving(empty, root) as (url, rest), connect(url) as socket:
        page = Page(socket)
        imported = open_sequence(page, trace)
        card = str(trace.resolve())
        assert (imported["isBinary"], imported["result"][0]["rankId"]) == (False, card)
        conn = db.connect_readonly(empty)
        try:
            ids = {name: row for name, *row in conn.execute(
                "SELECT s.name, s.id, s.thread_id, t.process_id FROM slice AS s JOIN thread AS t "
                "ON t.id = s.thread_id")}
        finally:
            conn.close()
        step, thread, process = ids["step"]
        kernel, kernel_thread, device = ids["kernel"]
        traces = page.body("timeline", "unit/threadTraces", {
            "rankId": card, "processId": str(process), "threadId": str(thread), "startTime": 0,
            "endTime": 200_000, "timePerPx": 1})
        assert (traces["maxDepth"], traces["currentMaxDepth"], traces["havePythonFunction"]) == (2, 2, True)
        assert [[(r["name"], r["startTime"], r["endTime"]) for r in depth] for depth in traces["data"]] == [
            [("step", 0, 100_000)], [("matmul", 10_000, 40_000)]]
        assert page.body("timeline", "unit/threadTracesSummary", {
            "rankId": card, "processId": str(device), "startTime": 0, "endTime": 200_000})["data"] == [
            {"startTime": 60_000, "duration": 20_000}]
        (flows,) = page.body("timeline", "unit/flows", {"rankId": card, "id": str(ids["matmul"][0])})["unitAllFlows"]
        (flow,) = flows["flows"]
        # the flow events' own times (s at 5011 us, f at 5061 us), the slices they bind to by id
        assert (flow["id"], flow["from"]["timestamp"], flow["to"]["timestamp"], flow["to"]["id"]) == (
            "77", 11_000, 61_000, str(kernel))
        detail = page.body("timeline", "unit/threadDetail", {"rankId": card, "tid": str(thread), "depth": 0,
                                                             "startTime": 50_000})
        assert (detail["data"]["title"], detail["data"]["rawStartTime"], detail["data"]["selfTime"]) == (
            "step", "5000000", 70_000)
        selection = page.body("timeline", "unit/threads", {"rankId": card, "startTime": 0, "endTime": 200_000,
                                                           "metadataList": [{"tid": str(kernel_thread),
                                                                             "pid": str(device), "metaType": "",
                                      "processes": [{"pid": str(device), "tidList": [str(kernel_thread)]}],
                                      "metaTypeList": [""]}]})
        assert selection["data"] == [{"title": "kernel", "wallDuration": 20_000, "occurrences": 1,
                                      "avgWallDuration": 20_000.0, "selfTime": 20_000, "tid": [str(kernel_thread)],
                                      "pid": str(device), "metaType": "",
                                      "processes": [{"pid": str(device), "tidList": [str(kernel_thread)]}],
                                      "metaTypeList": [""]}]
        other = page.send("timeline", "unit/threadTraces", {"rankId": "/elsewhere.json", "processId": str(process),
                                                             "threadId": str(thread), "startTime": 0, "endTime": 1,
                                                             "timePerPx": 1})
        assert other["error"]["message"].startswith("unknown card '/elsewhere.json'")


REAL_RANK_DB = "msinsight/pytorch/db/level0/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db"


def test_real_rank_timeline_in_relative_times(empty, root, realdata):
    # a rank db's epoch-ns times (1.7e18, past 2**53) come back from its earliest slice: the seed's
    # window 0..289326 finds the first slices (issue 19 item 3)
    rank = root / "op" / "ascend_pytorch_profiler_0.db"
    rank.write_bytes((realdata / REAL_RANK_DB).read_bytes())
    with serving(empty, root) as (url, rest), connect(url) as socket:
        page = Page(socket)
        imported = page.body("timeline", "import/action", {"projectName": "p", "path": [str(rank)],
                                                           "projectAction": 0, "isConflict": False})
        card = str(rank.resolve())
        assert [(r["rankId"], r["result"]) for r in imported["result"]] == [(card, True)]
        conn = db.connect_readonly(empty)
        try:
            thread, process, first_ts, first_dur = conn.execute(
                "SELECT s.thread_id, t.process_id, s.ts, s.dur FROM slice AS s JOIN thread AS t ON t.id = s.thread_id "
                "ORDER BY s.ts, s.id LIMIT 1").fetchone()
        finally:
            conn.close()
        assert first_ts > 2 ** 53
        traces = page.body("timeline", "unit/threadTraces", {"rankId": card, "processId": str(process),
                                                             "threadId": str(thread), "startTime": 0,
                                                             "endTime": 289326, "timePerPx": 1})
        top = traces["data"][0][0]
        assert (top["startTime"], top["duration"]) == (0, first_dur)
        times = [r[key] for depth in traces["data"] for r in depth for key in ("startTime", "endTime")]
        assert times and max(times) < 2 ** 53 and all(r["startTime"] <= 289326 and r["endTime"] >= 0
                                                      for depth in traces["data"] for r in depth)
        summary = page.body("timeline", "unit/threadTracesSummary", {"rankId": card, "processId": str(process),
                                                                     "startTime": 0, "endTime": 289326})
        assert summary["data"][0]["startTime"] == 0
        detail = page.body("timeline", "unit/threadDetail", {"rankId": card, "id": top["id"]})["data"]
        assert detail["rawStartTime"] == str(first_ts)


def test_errors_and_the_import_root(empty, root, tmp_path):
    outside = OpProfileFactory(path=tmp_path / "outside.bin")
    with serving(empty, root) as (url, rest), connect(url) as socket:
        page = Page(socket)
        refused = page.send("timeline", "unit/flows", {})
        assert (refused["result"], refused["error"]["code"], refused["error"]["message"]) == (
            False, 1003, "missing parameter id")
        unknown = page.send("global", "no/such", {})
        assert unknown["error"]["code"] == 1001 and unknown["error"]["message"].startswith("unknown command 'no/such'")
        assert page.body("global", "files/get", {"path": str(outside.path)}) == {
            "path": str(outside.path), "exist": False, "childrenFolders": [], "childrenFiles": []}
        assert page.body("global", "files/checkProjectValid", {"projectName": "p", "dataPath": [str(outside.path)]}) \
            == {"result": 2}
        assert page.send("timeline", "import/action", {"path": [str(outside.path)]})["error"]["message"].startswith(
            f"{outside.path}: not a readable file or folder below the import root")
        # a frame that is not a request envelope: an answer saying why, and the socket stays open
        socket.send("[1, 2]")
        bad = json.loads(socket.recv(timeout=30))
        assert (bad["result"], bad["error"]) == (False, {"code": 1002, "message":
                                                         "the request must be a JSON object (the request envelope)"})
        socket.send("{not json")
        assert json.loads(socket.recv(timeout=30))["error"]["message"].startswith("the frame is not JSON")
        assert page.body("global", "heartCheck", {}) == {}


def test_a_busy_insight_port_is_one_line(empty, root):
    with socket_module.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-c", "from warehouse.cli import cli; cli()", "serve", "--db",
                               str(empty), "--port", "0", "--insight-port", str(port)],
                              capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [f"Error: cannot listen on 127.0.0.1:{port}: Address already in use"]


def test_token_is_read_from_the_query_string(empty, root):
    with serving(empty, root, token="s3cret") as (url, _):
        with pytest.raises(InvalidStatus) as refused:
            connect(url + "?port=1").close()
        assert refused.value.response.status_code == 401
        with connect(url + "?port=1&token=s3cret") as socket:
            assert Page(socket).body("global", "heartCheck", {}) == {}


def test_the_insight_port_on_a_new_path_creates_the_warehouse_and_imports_into_it(tmp_path, root):
    """`serve --db NEW.db --insight-port N`: the frontend is one command away (issue 38): the warehouse
    is made empty, at this code's schema, and the page's import lands in it."""
    new = tmp_path / "new" / "warehouse.db"
    new.parent.mkdir()
    profile = OpProfileFactory(path=root / "op" / "visualize_data.bin")
    with serving(new, root) as (url, rest), connect(url) as socket:
        imported = open_sequence(Page(socket), profile.path)
        assert imported["result"][0]["result"] is True
    conn = db.connect_readonly(new)
    try:
        assert db.schema_version(conn) == db.available_migrations()[-1].version
        assert conn.execute("SELECT kind, status FROM source").fetchall() == [("op_profile", "ok")]
    finally:
        conn.close()


def test_serve_without_the_insight_port_still_refuses_a_missing_warehouse(tmp_path):
    """A REST-only serve of a mistyped path is an error, not a new empty warehouse."""
    missing = tmp_path / "typo.db"
    result = subprocess.run([sys.executable, "-c", "from warehouse.cli import cli; cli()", "serve", "--db",
                             str(missing), "--port", "0"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 1 and f"{missing}: no such warehouse" in result.stderr
    assert not missing.exists()
