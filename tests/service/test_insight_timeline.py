"""The Timeline of MindStudio Insight's frontend on training runs, through ``warehouse serve --insight-port``.

Real samples of shared/realdata are imported over a real WebSocket as the frontend does, then the
frontend's own sequence is driven (Ascend/msinsight ``modules/timeline/src/connection/handler.ts``
parseSuccessHandler builds the lanes from ``parse/success``; ``modules/timeline/src/insight/units/
AscendUnit.tsx`` then asks, per process lane, ``unit/threadTracesSummary`` (createSummaryChart), per
thread lane ``unit/threadTraces`` (getThreadTracesRequestParams) and, on a click, ``unit/threadDetail``
(the slice detail's fetchData)). Answers are in the real server's shapes: import/action as
``server/src/modules/timeline/protocol/TimelineProtocolUtil.cpp`` (SetBodyAtt, BuildImportActionJson)
with one card per rank (``server/src/modules/full_db/ProjectParse/ProjectParserDb.cpp``,
``ProjectParserJson.cpp``), the event as ToEventJson<ParseSuccessEvent> (``PaserFactory.cpp``
SendParseSuccessEvent); values are checked against SQL on the warehouse.
"""

from __future__ import annotations

import contextlib
import shutil

import pytest
from websockets.sync.client import connect

from factories.prof_folder import ProfTimelineFactory
from test_insight_ws import Page, empty, root, serving  # noqa: F401 - empty and root are fixtures
from warehouse import db

# each test runs `warehouse serve` in a child process and imports real samples: seconds each
pytestmark = pytest.mark.slow

DB_RUN = "msinsight/pytorch/db/level0"
TEXT_RUN = "msinsight/pytorch/text/level0"
TEXT_RANK = f"{TEXT_RUN}/rank0_ascend_pt"
LONE_TRACE = "hta/rank_unavailable/rank_not_found.json.gz"
#: keys of a lane's metadata (TimelineProtocolUtil.cpp UnitTrackToJson)
TRACK_KEYS = {"cardId", "processId", "processName", "label", "threadId", "threadName", "groupNameValue", "rankList",
              "metaType", "maxDepth", "dataType"}
#: keys of import/action's body (SetBodyAtt, ToResponseJson<ImportActionResponse>) and the warehouse's subdirectoryList
IMPORT_KEYS = {"isOnlyTraceJson", "isCluster", "reset", "isSimulation", "isBinary", "isIpynb", "isPending",
               "hasCachelineRecords", "instrVersion", "isLeaks", "isIE", "isMultiDevice", "isTriton", "coreList",
               "sourceList", "children", "result", "subdirectoryList"}


def imported(page: Page, path) -> dict:
    """import/action of ``path`` as the frontend's Import Data dialog sends it."""
    body = page.body("timeline", "import/action", {"projectName": "p", "path": [str(path)], "projectAction": 0,
                                                   "isConflict": False})
    assert set(body) == IMPORT_KEYS
    # the events follow the answer on the socket: any later answer (the page's heartbeat) comes after them
    assert page.body("global", "heartCheck", {}) == {}
    return body


def sql(database, query: str, *args) -> list[tuple]:
    conn = db.connect_readonly(database)
    try:
        return conn.execute(query, args).fetchall()
    finally:
        conn.close()


#: parse/heatmapCompleted's body after an import of a profile without MoE layers (test_insight_expert.py)
NO_HEATMAP = {"parseResult": False, "errorMsg": ""}
#: the inputs answering the timeline of the rank of the input at ? (the warehouse's answer_source)
TIMELINE_INPUTS = ("SELECT a.source_id FROM answer_source AS a JOIN source AS s ON s.run_id = a.run_id "
                   "AND s.rank_id = a.rank_id WHERE a.fact = 'timeline' AND s.path = ?")


def lanes_in_sql(database, path: str) -> tuple[int, int, int]:
    """(processes with a thread or a counter series, threads, counter events: the series' distinct names
    less their last '.arg', per process) of the rank whose card is the input at ``path``."""
    inputs = f"p.source_id IN ({TIMELINE_INPUTS})"
    threads = sql(database, f"SELECT t.process_id FROM thread AS t JOIN process AS p ON p.id = t.process_id "
                            f"WHERE {inputs}", path)
    series = sql(database, f"SELECT c.process_id, c.name FROM counter_track AS c JOIN process AS p "
                           f"ON p.id = c.process_id WHERE {inputs}", path)
    processes = {process for process, in threads} | {process for process, _ in series}
    events = {(process, name.rsplit(".", 1)[0] if "." in name else name) for process, name in series}
    return len(processes), len(threads), len(events)


def extent_in_sql(database, path: str) -> tuple[int, int]:
    """(first slice start or drawn counter sample, last slice end or drawn counter sample) of the rank whose card
    is the input at ``path`` (drawn: a series of a process, a counter lane)."""
    return extent_of_sources(database, TIMELINE_INPUTS, path)


def extent_of_sources(database, sources: str, *args) -> tuple[int, int]:
    """(first slice start or drawn counter sample, last slice end or drawn counter sample) of the inputs the
    query ``sources`` (with ``args``) selects: their common time axis's zero and end."""
    slices = sql(database, "SELECT min(sl.ts), max(sl.ts + sl.dur) FROM slice AS sl JOIN thread AS t "
                           f"ON t.id = sl.thread_id WHERE t.source_id IN ({sources})", *args)[0]
    samples = sql(database, "SELECT min(c.ts), max(c.ts) FROM counter AS c JOIN counter_track AS k ON k.id = c.track_id "
                            f"WHERE k.process_id IS NOT NULL AND k.source_id IN ({sources})", *args)[0]
    starts = [value for value in (slices[0], samples[0]) if value is not None]
    ends = [value for value in (slices[1], samples[1]) if value is not None]
    return min(starts, default=None), max(ends, default=None)


def check_event(event: dict, database, card: dict) -> dict:
    """The parse/success event of ``card`` (an import/action result): its shape, its tree counted against
    SQL; its body."""
    assert (event["type"], event["event"], event["moduleName"]) == ("event", "parse/success", "timeline")
    body = event["body"]
    assert set(body) == {"startTime", "maxTimeStamp", "offset", "startTimeUpdated", "isFullDb", "isRl", "isFtrace",
                         "unit", "rankList", "threadGroupList", "dbPath"}
    assert body["unit"]["type"] == "card" and body["unit"]["metadata"] == {"cardId": card["rankId"], "cardAlias": ""}
    assert body["dbPath"] == card["dbPath"] and body["offset"] == 0 and body["startTimeUpdated"] is True
    processes = body["unit"]["children"]
    threads = [lane for process in processes for lane in process["children"] if lane["type"] == "thread"]
    counters = [lane for process in processes for lane in process["children"] if lane["type"] == "counter"]
    assert (len(processes), len(threads), len(counters)) == lanes_in_sql(database, card["dbPath"])
    assert {p["type"] for p in processes} == {"process"}
    assert all(set(track["metadata"]) == TRACK_KEYS and track["metadata"]["cardId"] == card["rankId"]
               for track in processes + threads + counters)
    assert body["startTime"] == str(extent_in_sql(database, card["dbPath"])[0])
    assert body["rankList"] == [{"clusterId": card["cluster"], "host": "", "rankId": card["rankId"],
                                 "rankName": card["cardName"], "deviceId": body["rankList"][0]["deviceId"]}]
    return body


def check_all_pages(event: dict, database, cards: list[dict]) -> None:
    """allPagesSuccess once ``cards`` (import/action results) are parsed (ToEventJson<AllSuccessEvent>, module
    memory): every card at offset 0 (each on its own time axis), the earliest card's first slice as minTime."""
    assert (event["event"], event["moduleName"]) == ("allPagesSuccess", "memory")
    assert event["body"] == {
        "isAllPageParsed": True, "cardOffsets": [{"cardId": card["rankId"], "offset": 0} for card in cards],
        "minTime": str(min(extent_in_sql(database, card["dbPath"])[0] for card in cards))}


def lanes(body: dict) -> list[tuple[dict, dict]]:
    """The thread lanes with slices, each with its process lane."""
    return [(process["metadata"], thread["metadata"]) for process in body["unit"]["children"]
            for thread in process["children"] if thread["metadata"]["maxDepth"] > 0]


def drive_lanes(page: Page, database, body: dict, lane: int = 0) -> None:
    """What the Timeline asks once a card's lanes exist, its answers checked against SQL: the process
    lane's summary over the whole card, the thread lane's slices in the 200 us from its first one at
    1 ns per pixel (nothing merged), the detail of the first slice clicked."""
    process, thread = lanes(body)[lane]
    end = int(body["maxTimeStamp"] * 1.1)  # the frontend's endTimeAll (handler.ts)
    zero = int(body["startTime"])
    summary = page.body("timeline", "unit/threadTracesSummary", {
        "cardId": process["cardId"], "dbPath": body["dbPath"], "processId": process["processId"],
        "metaType": process["metaType"], "unitType": "process", "startTime": 0, "endTime": end, "timePerPx": 1000})
    busy = sql(database, "SELECT min(sl.ts), max(sl.ts + sl.dur) FROM slice AS sl JOIN thread AS t "
                         "ON t.id = sl.thread_id WHERE t.process_id = ?", int(process["processId"]))[0]
    assert summary["data"][0]["startTime"] == busy[0] - zero
    last = summary["data"][-1]
    assert last["startTime"] + last["duration"] >= busy[1] - zero
    (first_ts,) = sql(database, "SELECT min(ts) FROM slice WHERE thread_id = ?", int(thread["threadId"]))[0]
    window = 200_000
    traces = page.body("timeline", "unit/threadTraces", {
        "cardId": thread["cardId"], "dbPath": body["dbPath"], "processId": thread["processId"],
        "threadId": thread["threadId"], "metaType": thread["metaType"], "startTime": first_ts - zero,
        "endTime": first_ts - zero + window, "timePerPx": 1, "isFilterPythonFunction": False,
        "isHideFlagEvents": False})
    assert traces["maxDepth"] == thread["maxDepth"]
    expected = sql(database, "SELECT id, name, ts - ?, dur FROM slice WHERE thread_id = ? AND depth = 0 "
                             "AND ts <= ? AND ts + dur >= ? ORDER BY ts, id",
                   zero, int(thread["threadId"]), first_ts + window, first_ts)
    assert expected, "the lane's first slice is in the window"
    assert [(int(r["id"]), r["name"], r["startTime"], r["duration"]) for r in traces["data"][0]] == [
        tuple(row) for row in expected]
    first = traces["data"][0][0]
    detail = page.body("timeline", "unit/threadDetail", {
        "rankId": thread["cardId"], "dbPath": body["dbPath"], "metaType": thread["metaType"],
        "pid": thread["processId"], "tid": thread["threadId"], "id": first["id"], "startTime": first["startTime"],
        "depth": 0, "timePerPx": 1})
    assert (detail["data"]["title"], detail["data"]["duration"], detail["data"]["rawStartTime"]) == (
        first["name"], first["duration"], str(zero + first["startTime"]))


@contextlib.contextmanager
def opened(database, root, path):
    """A running server on ``database`` whose page imported ``path``: yields (the page, the import's body)."""
    with serving(database, root) as (url, rest), connect(url) as socket:
        page = Page(socket)
        yield page, imported(page, path)


@pytest.mark.parametrize("sample, timeline, project_type, is_db", (
    # six files (two rank dbs, two analysis.db, two profiler_info): DB_CLUSTER
    (DB_RUN, "ascend_pytorch_profiler_{rank}.db", 6, True),
    # nineteen files (a trace_view.json, CSVs and profiler JSONs per rank): TEXT_CLUSTER
    (TEXT_RUN, "trace_view.json.gz", 3, False),
))
def test_a_two_rank_folder_is_one_card_per_rank_with_its_lanes(empty, root, realdata, sample, timeline, project_type,
                                                               is_db):
    run = root / "level0"
    shutil.copytree(realdata / sample, run)
    with opened(empty, root, run) as (page, body):
        outputs = [run / f"rank{r}_ascend_pt" / "ASCEND_PROFILER_OUTPUT" for r in (0, 1)]
        paths = [str(output / timeline.format(rank=r)) for r, output in enumerate(outputs)]
        assert body["result"] == [
            {"cardName": str(r), "rankId": path, "cardPath": f"Directory: rank{r}_ascend_pt", "result": True,
             "dbPath": path, "cluster": "level0", "projectType": project_type, "dataPathList": [str(output)],
             "host": ""}
            for r, (path, output) in enumerate(zip(paths, outputs))]
        assert (body["isCluster"], body["isOnlyTraceJson"], body["isBinary"], body["isMultiDevice"]) == (
            True, False, False, False)
        assert [(node["type"], node["rankId"], node["clusterPath"]) for node in body["children"]] == [
            ("RANK", path, "level0") for path in paths]
        # a page opened later lists the same cards in its project explorer, under the cluster's node, with the
        # device a rank db names inside (the answer, given before any file is read, has only what the paths say)
        explorer = page.body("global", "files/getProjectExplorer", {})["projectDirectoryList"]
        listed = explorer[0]["children"][0]["children"]
        assert [node["deviceId"] for node in listed] == (["0", "1"] if is_db else ["", ""])
        assert explorer == [{"projectName": "p", "fileName": paths, "children": [
            {"clusterPath": "level0", "rankId": "", "host": "", "filePath": str(run), "type": "CLUSTER",
             "deviceId": "", "fileDir": "level0", "children": [
                 {**node, "deviceId": found["deviceId"]} for node, found in zip(body["children"], listed)]}]}]
        # one parse/success per rank, then the cluster's two events (test_insight_cluster.py), then one
        # parse/operatorCompleted per rank (test_insight_operator.py), then parse/memoryCompleted per rank
        # (test_insight_memory.py), then allPagesSuccess, then parse/heatmapCompleted (test_insight_expert.py)
        assert [event["event"] for event in page.events][:2] == ["parse/success"] * 2 and len(page.events) == 10
        check_all_pages(page.events[-2], empty, body["result"])
        extents = [extent_in_sql(empty, path) for path in paths]
        longest = max(end - start for start, end in extents)
        for event, card in zip(page.events, body["result"]):
            event_body = check_event(event, empty, card)
            assert (event_body["maxTimeStamp"], event_body["isFullDb"]) == (longest, is_db)
        drive_lanes(page, empty, page.events[1]["body"])
        # importing the folder again: the same cards (imported before), their lanes pushed again
        again = imported(page, run)
        assert again["result"] == body["result"] and len(page.events) == 20


def test_a_text_export_is_one_card(empty, root, realdata):
    rank = root / "rank0_ascend_pt"
    shutil.copytree(realdata / TEXT_RANK, rank)
    with opened(empty, root, rank) as (page, body):
        trace = str(rank / "ASCEND_PROFILER_OUTPUT" / "trace_view.json.gz")
        # ten files, one rank: one card named by its trace (TRACE), memory and operator data beside it
        assert body["result"] == [{"cardName": "0", "rankId": trace, "cardPath": "Directory: rank0_ascend_pt",
                                   "result": True, "dbPath": trace, "cluster": "", "projectType": 5,
                                   "dataPathList": [str(rank / "ASCEND_PROFILER_OUTPUT")], "host": ""}]
        assert (body["isCluster"], body["isOnlyTraceJson"]) == (False, False)
        # its kernel_details.csv: the Operator page lists the rank (test_insight_operator.py); the memory data
        # beside it: the Memory page's event follows (test_insight_memory.py); then the expert heat map's
        # (none in a training run: test_insight_expert.py), after allPagesSuccess
        event, operators, memory, all_pages, heatmap = page.events
        check_all_pages(all_pages, empty, body["result"])
        assert (heatmap["event"], heatmap["body"]) == ("parse/heatmapCompleted", NO_HEATMAP)
        assert (operators["event"], operators["body"]["rankId"]) == ("parse/operatorCompleted", trace)
        assert memory["event"] == "parse/memoryCompleted"
        event_body = check_event(event, empty, body["result"][0])
        start, end = extent_in_sql(empty, trace)
        assert (event_body["maxTimeStamp"], event_body["isFullDb"]) == (end - start, False)
        assert {t["metadata"]["metaType"] for p in event_body["unit"]["children"] for t in p["children"]} == {"TEXT"}
        drive_lanes(page, empty, event_body)


def test_a_lone_trace_is_one_card_named_by_its_path(empty, root, realdata):
    trace = root / "rank_not_found.json.gz"
    shutil.copyfile(realdata / LONE_TRACE, trace)
    with opened(empty, root, trace) as (page, body):
        # no rank anywhere: the card is named by the file, as ProjectParserJson names a trace without profiler_info
        assert [(c["cardName"], c["rankId"], c["projectType"], c["cluster"]) for c in body["result"]] == [
            (str(trace), str(trace), 5, "")]
        assert (body["isCluster"], body["isOnlyTraceJson"]) == (False, True)
        event, all_pages, heatmap = page.events
        check_all_pages(all_pages, empty, body["result"])
        assert (heatmap["event"], heatmap["body"]) == ("parse/heatmapCompleted", NO_HEATMAP)
        drive_lanes(page, empty, check_event(event, empty, body["result"][0]))


def test_an_msprof_rank_in_several_files_is_one_card_on_one_time_axis(empty, root):
    prof = ProfTimelineFactory(root=root, iterations=2)
    with opened(empty, root, prof.prof) as (page, body):
        # seven timeline JSONs of rank 0 (an iteration per msprof_*.json): one card, a text project (TRACE)
        (card,) = body["result"]
        timeline = sorted(str(path) for path in prof.timeline.iterdir())
        answering = [path for (path,) in sql(empty, "SELECT path FROM source WHERE id IN "
                                                    f"({TIMELINE_INPUTS}) ORDER BY id", timeline[0])]
        assert sorted(answering) == timeline
        assert (card["cardName"], card["rankId"], card["projectType"], card["cardPath"]) == (
            "0", answering[0], 5, "Directory: device_0")
        event, all_pages, heatmap = page.events
        assert (heatmap["event"], heatmap["body"]) == ("parse/heatmapCompleted", NO_HEATMAP)
        check_all_pages(all_pages, empty, [card])
        event_body = check_event(event, empty, card)
        start, end = extent_in_sql(empty, card["dbPath"])
        assert (event_body["maxTimeStamp"], event_body["isFullDb"]) == (end - start, False)
        # the second iteration's file's lanes answer on the card's time axis (its zero: the first iteration's)
        assert lanes(event_body)[0][1]["threadId"] != lanes(event_body)[-1][1]["threadId"]
        drive_lanes(page, empty, event_body, lane=-1)


def test_a_file_that_fails_is_a_card_that_fails_to_parse(empty, root):
    """The answer comes before the file is read: its card (a trace, TRACE); then parse/fail names the card
    and gives the warehouse's one-line reason, which names the file (ToEventJson<ParseFailEvent>)."""
    bad = root / "trace_view.json"
    bad.write_text('[{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 2}, {"ph": ')
    with opened(empty, root, bad) as (page, body):
        assert [(c["rankId"], c["result"], c["projectType"]) for c in body["result"]] == [(str(bad), True, 5)]
        [(reason,)] = sql(empty, "SELECT error FROM source WHERE path = ? AND status = 'failed'", str(bad))
        # then allPagesSuccess, naming no card: every parse task ended (PaserFactory.cpp ParsePostProcess)
        assert [(event["event"], event["moduleName"], event["body"]) for event in page.events] == [
            ("parse/fail", "timeline", {"rankId": str(bad), "error": reason}),
            ("allPagesSuccess", "memory", {"isAllPageParsed": True, "cardOffsets": [], "minTime": "0"})]
        assert reason.startswith(f"{bad}: ") and "\n" not in reason
