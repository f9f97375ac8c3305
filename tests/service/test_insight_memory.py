"""The Memory page of MindStudio Insight's frontend on real training runs, through ``warehouse serve``.

A rank is imported over a real WebSocket; the event ``parse/memoryCompleted`` must name its card
(TimelineProtocolUtil.cpp ToEventJson<ParseMemoryCompletedEvent>), then the Memory module's requests
are sent as the frontend sends them (``modules/memory/src``: ``pages/Memory.tsx`` fetchMemoryType and
fetchResourceType, ``components/DynamicLineChart.tsx`` onMemoryCurveGet, ``components/
MemoryDetailTable.tsx`` buildDynamicSearchParam / buildStaticSearchParam / buildSearchSizeParam,
``components/AntTableChart.tsx`` getTableData and redirectToTimeline, ``components/StaticLineChart.tsx``;
the commands: ``utils/RequestUtils.ts``). Values are checked against the profiler's own CSVs and
database, converted to the real server's units (``server/src/modules/memory``: ms, MB, KB).
"""

from __future__ import annotations

import contextlib
import csv
import math
import shutil
import sqlite3
from decimal import Decimal
from pathlib import PurePath

import pytest

from factories.text_exports import MemoryRecordFactory, ProfilerInfoFactory
from factories.trace_json import BASE_US, EventFactory, TraceFileFactory
from service.insight import memory
from test_insight_timeline import opened
from test_insight_ws import empty, root  # noqa: F401 - fixtures

TEXT_RANK = "msinsight/pytorch/text/level0/rank0_ascend_pt"
DB_RANK = "msinsight/pytorch/db/level0/rank0_ascend_pt"
#: a text rank with static graph memory (static_op_mem.csv)
STATIC_RANK = "msinsight/server_test_data/test_rank_1"
OPERATOR_KEYS = ["id", "name", "size", "allocationTime", "releaseTime", "duration", "allocationTotalAllocated",
                 "allocationTotalReserved", "releaseTotalAllocated", "releaseTotalReserved", "activeReleaseTime",
                 "activeDuration", "allocationTotalActive", "releaseTotalActive", "streamPtr"]


@contextlib.contextmanager
def memory_page(empty, root, realdata, sample: str, is_cluster: bool):
    """A served page that imported a copy of one real rank: yields (the page, its folder, the card,
    the card's time zero in ns: parse/success's startTime, and the ``rankId``/``dbPath`` every
    Memory request carries, from parse/memoryCompleted)."""
    run = root / PurePath(sample).name
    shutil.copytree(realdata / sample, run)
    with opened(empty, root, run) as (page, body):
        [card] = body["result"]
        [success] = [event for event in page.events if event["event"] == "parse/success"]
        yield page, run, card, int(success["body"]["startTime"]), check_completed(page, card, is_cluster)


def located(page, card: dict, rank: dict, row: dict, meta_type: str) -> dict:
    """Memory/find/slice for a table row (AntTableChart.tsx redirectToTimeline), then the slice's
    detail as the Timeline asks it: the slice found is named as the row's operator."""
    found = page.body("memory", "Memory/find/slice", {"id": row["id"], "name": row["name"], **rank})
    assert (found["rankId"], found["metaType"]) == (card["rankId"], meta_type)
    detail = page.body("timeline", "unit/threadDetail", {
        "cardId": card["rankId"], "processId": found["processId"], "threadId": found["threadId"],
        "id": found["id"], "startTime": found["startTime"], "depth": found["depth"], "metaType": meta_type})
    assert detail["data"]["title"] == row["name"] and detail["data"]["duration"] == found["duration"]
    # the block was allocated while the slice ran (allocationTime: ms after the card's zero)
    assert found["startTime"] <= float(row["allocationTime"]) * 1e6 + 500 and \
        float(row["allocationTime"]) * 1e6 - 500 <= found["startTime"] + found["duration"]
    return found


def check_completed(page, card: dict, is_cluster: bool) -> dict:
    """parse/memoryCompleted names the card as the frontend keys it (rankInfo.rankId, dbPath)."""
    [event] = [event for event in page.events if event["event"] == "parse/memoryCompleted"]
    assert event["moduleName"] == "timeline"
    [result] = event["body"]["memoryResult"]
    assert event["body"] == {"isCluster": is_cluster, "dbPath": card["dbPath"], "memoryResult": [result]}
    # rankInfo is the card's as parse/success lists it (RankInfo: clusterId, host, rankId, rankName, deviceId)
    [success] = [event for event in page.events if event["event"] == "parse/success"]
    assert result == {"rankId": card["rankId"], "hasMemory": True, "dbPath": card["dbPath"],
                      "rankInfo": success["body"]["rankList"][0]}
    assert (result["rankInfo"]["rankId"], result["rankInfo"]["rankName"]) == (card["rankId"], card["cardName"])
    return {"rankId": result["rankInfo"]["rankId"], "dbPath": result["dbPath"]}


def csv_rows(path) -> list[dict]:
    with open(path, newline="") as handle:
        return [{key: value.strip() for key, value in row.items()} for row in csv.DictReader(handle)]


#: the server rounds in SQL (ROUND), half away from zero on the binary value: round as SQLite does
ROUNDER = sqlite3.connect(":memory:")


def sql_round(value: float, digits: int) -> float:
    return ROUNDER.execute("select round(?, ?)", (value, digits)).fetchone()[0]


def ns(us: str) -> int:
    """A CSV's absolute microseconds in ns, exactly (a float holds no sub-microsecond digit of an epoch time)."""
    return int(Decimal(us) * 1000)


def ms(us: str, zero: int) -> float:
    return sql_round((ns(us) - zero) / 1e6, 3)


def point(value: float) -> str:
    return memory._text(value)


def operator_page(page, rank: dict, **asked) -> dict:
    """Memory/view/operator as buildDynamicSearchParam sends it (setParamOtherCondition adds the order)."""
    params = {**rank, "type": "Overall", "currentPage": 1, "pageSize": 10, "searchName": "", "minSize": 0,
              "maxSize": 0, "filters": {}, "rangeFilters": {}, "isOnlyShowAllocatedOrReleasedWithinInterval": False,
              "isCompare": False, **asked}
    body = page.body("memory", "Memory/view/operator", params)
    assert [column["key"] for column in body["columnAttr"]] == [column[1] for column in memory.OPERATOR_COLUMNS]
    # only the size column carries the slider's bounds (int32's range, MemoryTableView.h)
    assert [(column["key"], column["min"], column["max"]) for column in body["columnAttr"] if "min" in column] == [
        ("size", -2147483648, 2147483647)]
    for row in body["operatorDetail"]:
        assert list(row["compare"]) == OPERATOR_KEYS
    return body


@pytest.mark.slow
def test_a_text_rank_shows_its_memory(empty, root, realdata):
    with memory_page(empty, root, realdata, TEXT_RANK, is_cluster=False) as (page, run, card, zero, rank):
        output = run / "ASCEND_PROFILER_OUTPUT"
        assert page.body("memory", "Memory/view/type", rank) == {"type": "dynamic", "graphId": []}
        assert page.body("memory", "Memory/view/resourceType", rank) == {"type": "Pytorch"}

        # the curve grouped Overall: every record but PTA's, in ms and MB (622 points: none thinned)
        curve = page.body("memory", "Memory/view/memoryUsage", {**rank, "type": "Overall", "isCompare": False,
                                                                 "start": "", "end": ""})
        records = csv_rows(output / "memory_record.csv")
        assert curve["legends"] == ["Time (ms)", "Operators Allocated", "Operators Activated", "Operators Reserved",
                                    "App Reserved"]
        expected = []
        for row in records:
            mb = {key: sql_round(float(row[key] or 0), 2)
                  for key in ("Total Allocated(MB)", "Total Reserved(MB)", "Total Active(MB)")}
            if row["Component"] == "APP":
                values = [math.nan] * 3 + [mb["Total Reserved(MB)"]]
            elif row["Component"] == "PTA+GE":
                values = [mb["Total Allocated(MB)"], mb["Total Active(MB)"], mb["Total Reserved(MB)"], math.nan]
            else:
                continue
            expected.append((ms(row["Timestamp(us)"], zero), [point(v) for v in values]))
        # by time, as the server reads them (ORDER BY timestamp); the file lists APP's records first
        expected = [[point(at)] + values for at, values in sorted(expected, key=lambda item: item[0])]
        assert len(expected) == 508 and curve["lines"] == expected
        pta_ge = [row for row in records if row["Component"] == "PTA+GE"]

        def peak(rows, column):  # the largest value shown, its six decimals cut to two (GetPeakMemory)
            return f"{max(sql_round(float(row[column]), 2) for row in rows):.6f}"[:-4]

        app = [row for row in records if row["Component"] == "APP"]
        assert curve["title"] == (
            f"Peak Memory Usage: Operator Allocated: {peak(pta_ge, 'Total Allocated(MB)')}MB"
            f" | Operator Activated: {peak(pta_ge, 'Total Active(MB)')}MB"
            f" | Operator Reserved: {peak(pta_ge, 'Total Reserved(MB)')}MB"
            f" | APP Reserved: {peak(app, 'Total Reserved(MB)')}MB")
        assert curve["rankOffsetNs"] == 0
        # a window of the curve: only the points inside it
        window = page.body("memory", "Memory/view/memoryUsage", {**rank, "type": "Overall", "isCompare": False,
                                                                  "start": expected[10][0], "end": expected[20][0]})
        assert window["lines"] == expected[10:21]

        # by stream: one series of three per stream of PTA+GE's records
        streams = page.body("memory", "Memory/view/memoryUsage", {**rank, "type": "Stream", "isCompare": False,
                                                                   "start": "", "end": ""})
        assert streams["legends"] == ["Time (ms)", "Allocated of 1431569360", "Activated of 1431569360",
                                      "Reserved of 1431569360", "Allocated of 1438915568", "Activated of 1438915568",
                                      "Reserved of 1438915568"]
        assert len(streams["lines"]) == len([row for row in pta_ge if row["Stream Ptr"]])
        # by component: PTA and GE apart, then the app
        components = page.body("memory", "Memory/view/memoryUsage", {**rank, "type": "Component",
                                                                      "isCompare": False, "start": "", "end": ""})
        assert components["legends"] == ["Time (ms)", *memory.PTA_LEGENDS, *memory.GE_LEGENDS, "App Reserved"]
        assert len(components["lines"]) == len([row for row in records if row["Component"] in ("PTA", "GE", "APP")])

        # the table: operator_memory.csv's rows, KB, ms and MB, ten to a page
        blocks = csv_rows(output / "operator_memory.csv")
        sizes = page.body("memory", "Memory/view/operatorSize", {**rank, "type": "Overall", "isCompare": False})
        kb = [sql_round(float(row["Size(KB)"]), 2) for row in blocks]
        # rounded down and up (QueryMemoryOperatorSizeHandler.cpp), so every block's size is within them
        assert sizes == {"minSize": math.floor(min(kb)), "maxSize": math.ceil(max(kb))}
        first = operator_page(page, rank, minSize=sizes["minSize"], maxSize=sizes["maxSize"])
        assert first["totalNum"] == len(blocks) == 184
        for shown, row in zip([row["compare"] for row in first["operatorDetail"]], blocks[:10], strict=True):
            assert shown["name"] == row["Name"] and shown["size"] == sql_round(float(row["Size(KB)"]), 2)
            assert float(shown["allocationTime"]) == ms(row["Allocation Time(us)"], zero)
            # a block never released has no duration: the server reads the NULL as 0
            assert shown["duration"] == (sql_round(float(row["Duration(us)"]) / 1000, 3) if row["Duration(us)"] else 0)
            assert shown["releaseTime"] == ("N/A" if not row["Release Time(us)"] else
                                            repr(ms(row["Release Time(us)"], zero)))
            assert shown["allocationTotalAllocated"] == sql_round(float(row["Allocation Total Allocated(MB)"]), 2)
            assert shown["streamPtr"] == row["Stream Ptr"]
        # sorted by size, largest first, third page
        ordered = operator_page(page, rank, order="descend", orderBy="size", currentPage=3)
        by_size = sorted(kb, reverse=True)
        assert [row["compare"]["size"] for row in ordered["operatorDetail"]] == by_size[20:30]
        # a name filter and a size range
        named = operator_page(page, rank, filters={"name": "TRANSDATA"}, rangeFilters={"size": [100, 5440]},
                              pageSize=200)
        wanted = [row for row in blocks
                  if "transdata" in row["Name"].lower() and 100 <= sql_round(float(row["Size(KB)"]), 2) <= 5440]
        assert named["totalNum"] == len(wanted) > 0
        assert [row["compare"]["name"] for row in named["operatorDetail"]] == [row["Name"] for row in wanted]
        # a page past the end holds nothing, and the server then counts nothing
        assert operator_page(page, rank, currentPage=100) | {"columnAttr": []} == {
            "totalNum": 0, "operatorDetail": [], "columnAttr": []}

        # a mistake is one sentence, the socket stays open: an unknown card, a group the table has not,
        # a comparison with no baseline rank set or of a view that has none, a column that does not sort
        for command, params, words in (
                ("Memory/view/type", {"rankId": "nowhere"}, "unknown card 'nowhere'"),
                ("Memory/view/operator", {**rank, "type": "Component"},
                 "Group By parameter should be Overall or Stream"),
                ("Memory/view/memoryUsage", {**rank, "type": "Overall", "isCompare": True}, "needs a baseline rank"),
                ("Memory/view/type", {**rank, "isCompare": True}, "no compare mode"),
                ("Memory/view/operator", {**rank, "type": "Overall", "orderBy": "deviceId"},
                 "Non-exist column deviceId")):
            refused = page.send("memory", command, params)
            assert refused["result"] is False and words in refused["error"]["message"], refused

        # components whose reserved memory peaked at 100 MB or more (npu_module_mem.csv)
        table = page.body("memory", "Memory/view/component", {"currentPage": 1, "pageSize": 10, **rank,
                                                               "isCompare": False})
        modules: dict[str, float] = {}
        for row in csv_rows(output / "npu_module_mem.csv"):
            modules[row["Component"]] = max(modules.get(row["Component"], 0.0), float(row["Total Reserved(MB)"]))
        big = sorted(name for name, peak in modules.items() if peak >= 100)
        assert table["totalNum"] == len(big) > 0
        assert [row["compare"]["component"] for row in table["componentDetail"]] == big[:10]
        assert [row["compare"]["totalReserved"] for row in table["componentDetail"]] == [
            round(modules[name], 2) for name in big[:10]]
        assert table["columnAttr"] == list(memory.COMPONENT_COLUMNS)

        # from a table row to its slice on the Timeline
        found = located(page, card, rank, first["operatorDetail"][0]["compare"], "TEXT")
        allocated = ns(blocks[0]["Allocation Time(us)"]) - zero
        assert found["startTime"] <= allocated <= found["startTime"] + found["duration"]


@pytest.mark.slow
def test_a_database_rank_shows_its_memory(empty, root, realdata):
    with memory_page(empty, root, realdata, DB_RANK, is_cluster=True) as (page, run, card, zero, rank):
        assert page.body("memory", "Memory/view/type", rank) == {"type": "dynamic", "graphId": []}
        curve = page.body("memory", "Memory/view/memoryUsage", {**rank, "type": "Overall", "isCompare": False,
                                                                 "start": "", "end": ""})
        source = sqlite3.connect(f"file:{run / 'ASCEND_PROFILER_OUTPUT' / 'ascend_pytorch_profiler_0.db'}"
                                 "?immutable=1", uri=True)
        try:
            framework = source.execute(
                "select timestamp, totalAllocated, totalActive, totalReserved from MEMORY_RECORD as m "
                "join STRING_IDS as s on s.id = m.component where s.value = 'PTA+GE' order by timestamp").fetchall()
            blocks = source.execute("select count(*), min(size), max(size) from OP_MEMORY").fetchone()
        finally:
            source.close()
        mb = [row for row in curve["lines"] if row[-1] == "NULL"]
        assert [row[0] for row in mb] == [point(sql_round((ts - zero) / 1e6, 3)) for ts, *_ in framework]
        assert mb[0][1:4] == [point(sql_round(value / 1048576, 2)) for value in framework[0][1:]]
        sizes = page.body("memory", "Memory/view/operatorSize", {**rank, "type": "Overall", "isCompare": False})
        assert sizes == {"minSize": math.floor(sql_round(blocks[1] / 1024, 2)),
                         "maxSize": math.ceil(sql_round(blocks[2] / 1024, 2))}
        assert operator_page(page, rank)["totalNum"] == blocks[0]
        # the rank db's blocks are found in its PYTORCH_API lane
        located(page, card, rank, operator_page(page, rank)["operatorDetail"][0]["compare"], "PYTORCH_API")


@pytest.mark.slow
def test_a_static_graph_shows_its_memory(empty, root, realdata):
    with memory_page(empty, root, realdata, STATIC_RANK, is_cluster=False) as (page, run, _, _, rank):
        rows = csv_rows(run / "ASCEND_PROFILER_OUTPUT" / "static_op_mem.csv")
        assert page.body("memory", "Memory/view/type", rank) == {"type": "static", "graphId": ["0", "1"]}
        graph0 = [row for row in rows if row["Graph ID"] == "0" and row["Op Name"] != "TOTAL"]
        sizes = page.body("memory", "Memory/view/staticOpMemorySize", {**rank, "graphId": "0", "isCompare": False})
        # the warehouse holds whole bytes: 0.211914063 KB is 217 bytes, 0.2119140625 KB
        assert sizes == {"minSize": min(round(float(r["Size(KB)"]) * 1024) / 1024 for r in graph0),
                         "maxSize": max(round(float(r["Size(KB)"]) * 1024) / 1024 for r in graph0)}
        # buildStaticSearchParam: the bounds are staticOpMemorySize's answer (fractional KB)
        listed = page.body("memory", "Memory/view/staticOpMemoryList", {
            **rank, "graphId": "0", "currentPage": 1, "pageSize": 10, "searchName": "", "isCompare": False,
            "order": "descend", "orderBy": "size", **sizes})
        largest = sorted(graph0, key=lambda r: float(r["Size(KB)"]), reverse=True)[:10]
        assert listed["totalNum"] == len(graph0)
        assert [(r["compare"]["opName"], r["compare"]["size"]) for r in listed["operatorDetail"]] == [
            (r["Op Name"], round(float(r["Size(KB)"]) / 1024, 2)) for r in largest]
        # the static table's header: every column sorts, none filters, no slider bounds (StaticOpTableView)
        assert listed["columnAttr"] == [{"name": name, "key": key, "sortable": True, "searchable": False,
                                         "rangeFilterable": False} for name, key, _ in memory.STATIC_COLUMNS]
        curve = page.body("memory", "Memory/view/staticOpMemoryGraph", {**rank, "graphId": "0", "isCompare": False})
        assert curve["legends"] == ["Node Index", "Size", "Total Size"]
        [total] = [float(r["Size(KB)"]) for r in rows if r["Graph ID"] == "0" and r["Op Name"] == "TOTAL"]
        held: dict[int, float] = {}
        for r in graph0:
            held[int(r["Node Index Start"])] = held.get(int(r["Node Index Start"]), 0) + float(r["Size(KB)"])
            held[int(r["Node Index End"])] = held.get(int(r["Node Index End"]), 0) - float(r["Size(KB)"])
        running = 0.0
        for line, index in zip(curve["lines"], sorted(held), strict=True):
            running += held[index]
            assert line[1:] == [f"{running / 1024:.2f}", f"{total / 1024:.2f}"]
        # the memory is all released once the graph ends
        assert curve["lines"][-1][1] == "0.00"


def test_a_curve_of_many_points_keeps_each_bucket_extremes():
    """Above 1,000 points, each bucket keeps only the points holding a series' minimum or maximum
    (CurveContainer::ComputeCurve), in index order within a column."""
    points = [(i / 10, float(i % 7), math.nan if i % 2 else float(i)) for i in range(3000)]
    lines = memory._thinned(points, 3, 0, 0)
    # 1,000 buckets of 3: column 1's min and max, then column 2's (only the even points hold it): in the
    # second bucket point 4 (column 2's only value) comes after 3 and 5 (column 1's extremes)
    assert lines[:5] == [["0", "0", "0"], ["0.2", "2", "2"], ["0.3", "3", "NULL"], ["0.5", "5", "NULL"],
                         ["0.4", "4", "4"]]
    assert len(lines) <= 4 * 1000 and all(len(line) == 3 for line in lines)
    assert memory._text(12.3456) == "12.346" and memory._text(2.5) == "2.5" and memory._text(-1.0004) == "-1"


@pytest.mark.slow
def test_a_long_curve_is_thinned_and_a_window_of_it_is_whole(empty, root):
    """A factory text rank of 2,500 framework records and a workspace: above 1,000 points the curve keeps
    each bucket's extremes (CurveContainer::ComputeCurve), a window of 500 is answered whole."""
    folder = root / "rank0_ascend_pt"
    ProfilerInfoFactory(path=folder / "profiler_info_0.json",
                        document=ProfilerInfoFactory.build(path=None).document | {"rank_id": 0})
    output = folder / "ASCEND_PROFILER_OUTPUT"
    # the card's time zero: its one slice, at BASE_US
    TraceFileFactory(path=output / "trace_view.json", events=[EventFactory(ts=f"{BASE_US}.000")])
    records = [{"Component": "PTA+GE", "Timestamp(us)": f"{BASE_US + 10 * i}.000", "Total Allocated(MB)": str(i % 97),
                "Total Reserved(MB)": "200", "Total Active(MB)": str(i % 97), "Stream Ptr": "", "Device Type": "NPU:0"}
               for i in range(2500)]
    records.append({"Component": "WORKSPACE", "Timestamp(us)": f"{BASE_US + 5}.000", "Total Allocated(MB)": "3",
                    "Total Reserved(MB)": "4", "Total Active(MB)": "", "Stream Ptr": "", "Device Type": "NPU:0"})
    MemoryRecordFactory(path=output / "memory_record.csv", rows=records)
    with opened(empty, root, folder) as (page, body):
        [card] = body["result"]
        rank = check_completed(page, card, is_cluster=False)
        asked = {**rank, "type": "Overall", "isCompare": False}
        curve = page.body("memory", "Memory/view/memoryUsage", {**asked, "start": "", "end": ""})
        # no stream: no Activated series; the workspace's two
        assert curve["legends"] == ["Time (ms)", "Operators Allocated", "Operators Reserved", *memory.WORKSPACE_LEGENDS]
        assert curve["title"] == "Peak Memory Usage: Operator Allocated: 96.00MB | Operator Reserved: 200.00MB"
        whole = {f"{i / 100:g}": [f"{i / 100:g}", str(i % 97), "200", "NULL", "NULL"] for i in range(2500)}
        whole["0.005"] = ["0.005", "NULL", "NULL", "3", "4"]
        # every point kept is a point of the curve, fewer than the 2,501
        assert all(whole[line[0]] == line for line in curve["lines"]) and len(curve["lines"]) < 2501
        # buckets of 3 points, in the order the columns find them: the first (0, 0.005, 0.01) keeps 0
        # (allocated 0) and 0.01 (1) for the operators' column, then the workspace's point
        assert [line[0] for line in curve["lines"][:3]] == ["0", "0.01", "0.005"]
        # each of the 97 peaks (allocated 96) falls in a bucket that keeps it
        assert len([line for line in curve["lines"] if line[1] == "96"]) == len(range(96, 2500, 97))
        window = page.body("memory", "Memory/view/memoryUsage", {**asked, "start": "10", "end": "14.99"})
        assert window["lines"] == [whole[f"{i / 100:g}"] for i in range(1000, 1500)]


@pytest.mark.slow
def test_each_rank_of_a_cluster_shows_its_own_memory(empty, root, realdata):
    run = root / "level0"
    shutil.copytree(realdata / "msinsight/pytorch/text/level0", run)
    with opened(empty, root, run) as (page, body):
        completed = [event["body"] for event in page.events if event["event"] == "parse/memoryCompleted"]
        # one event per rank, each naming its card; a text run of several ranks is a cluster
        assert [(b["isCluster"], b["memoryResult"][0]["rankId"]) for b in completed] == [
            (True, card["rankId"]) for card in body["result"]]
        for card, event in zip(body["result"], completed):
            rank = {"rankId": event["memoryResult"][0]["rankInfo"]["rankId"], "dbPath": event["dbPath"]}
            records = csv_rows(PurePath(card["dbPath"]).parent / "memory_record.csv")
            curve = page.body("memory", "Memory/view/memoryUsage", {**rank, "type": "Component", "isCompare": False,
                                                                     "start": "", "end": ""})
            apart = [row for row in records if row["Component"] in ("PTA", "GE", "APP")]
            assert len(curve["lines"]) == len(apart)
            # the rank's largest reserved memory of PTA, in its own file
            pta = max(sql_round(float(row["Total Reserved(MB)"]), 2) for row in apart if row["Component"] == "PTA")
            assert f"PTA Reserved: {pta:.6f}"[:-4] + "MB" in curve["title"]
