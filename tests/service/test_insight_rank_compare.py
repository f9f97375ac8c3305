"""Compare mode for two ranks of a training run, through ``warehouse serve --insight-port`` (issue 38).

A two-rank run is imported over a real WebSocket, then MindStudio Insight's frontend's sequence is
driven: "Set as Baseline Data" on rank 0's card in the project tree (Ascend/msinsight
``modules/framework/src/utils/Compare.tsx`` setBaselineData: ``global/setBaseline`` with the tree
node's ``filePath`` and ``rankId``, ``utils/Request.ts`` setBaseline; the params of
``components/RemoteManager/ProjectContents/ContextMenu.tsx``), "Set as Comparison Data" on rank 1
(setCompareData: the Operator page's condition then names rank 1 with ``isCompare`` true,
``modules/operator/src/components/operator/Filter.tsx``), the Operator page's table in compare mode
(``operator/DetailTable.tsx`` queryOperatorData: ``operator/statistic`` for a grouping,
``operator/details`` for "Communication Operator"; the pies and "Operator" grouping are hidden,
``Operator.tsx``, ``Filter.tsx``), then "Cancel Baseline" (cancelBaselineData). Answers are in the
real server's shapes (``server/src/modules/global/protocol/GlobalProtocolUtil.cpp``
ToResponseJson<BaselineSettingResponse>; ``server/src/modules/operator/protocol/OperatorProtocolUtil.cpp``),
paired as its handlers pair them (``handler/QueryOpStatisticInfoHandler.cpp``,
``QueryOpDetailInfoHandler.cpp``); each rank's values equal the warehouse's named queries
(``insight_operator_groups``, ``insight_operators``) for that rank.
"""

from __future__ import annotations

import math
import shutil

import pytest

from service import create_app
from service.insight.compare import fixed_minus
from service.insight.protocol import rows
from test_insight_compare import ask, body, build
from test_insight_operator import DB_RUN, DETAIL_KEYS, STATISTIC_KEYS, condition, ranks_of, table, us
from test_insight_timeline import extent_in_sql, imported, opened, sql
from test_insight_ws import empty, root  # noqa: F401 - fixtures
from warehouse import db

# each test runs `warehouse serve` in a child process and imports a run: seconds each
pytestmark = pytest.mark.slow


def named(database, name: str, path: str, **params) -> list[dict]:
    """A named query's rows for the rank whose card is the input at ``path``."""
    ((run_id, rank_id),) = sql(database, "SELECT run_id, rank_id FROM source WHERE path = ?", path)
    conn = db.connect_readonly(database)
    try:
        return rows(conn, name, run_id=run_id, rank_id=rank_id, **params)
    finally:
        conn.close()


def tree_node(page, path: str) -> dict:
    """The project tree's node of the rank card at ``path`` (what the context menu acts on)."""
    (project,) = page.body("global", "files/getProjectExplorer", {})["projectDirectoryList"]
    # a rank of a run of several ranks is under its cluster's node
    nodes = [node for top in project["children"] for node in (top, *top["children"])]
    return next(node for node in nodes if node["type"] == "RANK" and node["filePath"] == path)


def set_baseline(page, node: dict) -> dict:
    """Compare.tsx setBaselineData's request for a rank node of the tree."""
    return page.body("global", "global/setBaseline", {
        "projectName": "warehouse", "fileType": node["type"], "filePath": node["filePath"], "rankId": node["rankId"],
        "baselineClusterPath": node["clusterPath"], "currentClusterPath": node["clusterPath"]})


def groups_by_type(database, path: str) -> dict[tuple[str, str], dict]:
    """The rank's kernels by (type, core) as insight_operator_groups answers them."""
    return {(row["op_type"], row["acc_core"] or ""): row
            for row in named(database, "insight_operator_groups", path, group_by="op_type")}


def test_two_ranks_of_a_run_compare_their_operators(empty, root, realdata):
    run = root / "level1"
    shutil.copytree(realdata / DB_RUN, run)
    with opened(empty, root, run) as (page, _):
        base_rank, mine_rank = ranks_of(page)
        base_path, mine_path = base_rank["dbPath"], mine_rank["dbPath"]
        told = len(page.events)
        answer = set_baseline(page, tree_node(page, base_path))
        assert answer == {"rankId": base_path, "host": "", "cardName": "Baseline_0", "isCluster": False,
                          "errorMessage": "", "dbPath": base_path, "isFtrace": False}
        # the baseline's card the page adds is told parsed, with the rank's lanes, then allPagesSuccess
        assert page.body("global", "heartCheck", {}) == {}
        success, all_pages = page.events[told:]
        assert (success["event"], success["body"]["unit"]["metadata"]["cardId"], all_pages["event"]) == (
            "parse/success", base_path, "allPagesSuccess")
        assert success["body"]["unit"]["children"] and success["body"]["startTime"] == str(
            extent_in_sql(empty, base_path)[0])

        # Operator Type: every group of both ranks matched on type and core, the diff's total time first
        shown = {**condition(mine_rank, top_k=-1), "isCompare": True}
        body = page.body("operator", "operator/statistic", table(shown, page_size=100, field="totalTime"))
        mine, base = groups_by_type(empty, mine_path), groups_by_type(empty, base_path)
        assert body["total"] == len(mine.keys() | base.keys()) == len(body["data"])
        for item in body["data"]:
            assert set(item) == {"diff", "baseline", "compare"}
            assert all(set(item[side]) == set(STATISTIC_KEYS) for side in item)
            key = (item["diff"]["opType"], item["diff"]["accCore"])
            for side, groups in (("compare", mine), ("baseline", base)):
                group = groups.get(key)
                shown_side = item[side]
                if group is None:  # the server's empty row: its count "0"
                    assert shown_side == {**dict.fromkeys(STATISTIC_KEYS, ""), "count": "0"}
                    continue
                assert (shown_side["opType"], shown_side["accCore"], shown_side["count"], shown_side["totalTime"],
                        shown_side["maxTime"], shown_side["minTime"]) == (
                    group["op_type"], group["acc_core"], str(group["count"]), us(group["total_ns"]),
                    us(group["max_ns"]), us(group["min_ns"]))
            mine_total = us(mine[key]["total_ns"]) if key in mine else ""
            base_total = us(base[key]["total_ns"]) if key in base else ""
            assert item["diff"]["totalTime"] == fixed_minus(mine_total, base_total)
            counts = (mine.get(key, {}).get("count", 0), base.get(key, {}).get("count", 0))
            assert item["diff"]["count"] == str(counts[0] - counts[1])
            assert item["diff"]["opName"] == "->" and item["diff"]["inputShape"] == "->"
        totals = [float(item["diff"]["totalTime"]) for item in body["data"]]
        assert totals == sorted(totals, reverse=True)

        # topK and a page: the 15 largest differences, the second page of 10 is their last 5
        shown = {**condition(mine_rank), "isCompare": True}
        second = page.body("operator", "operator/statistic", table(shown, current=2, field="totalTime"))
        assert second["total"] == 15 and second["data"] == body["data"][10:15]

        # Input Shape: groups matched on name, shapes and core; the diff's type is the compare rank's twice
        # (CalDiffDataByGroup, SetOpInputShapeGroupData)
        shown = {**condition(mine_rank, "Input Shape", top_k=-1), "isCompare": True}
        body = page.body("operator", "operator/statistic", table(shown, page_size=1000))
        shaped = {path: {(row["op_name"], row["input_shape"] or "", row["acc_core"] or ""): row
                         for row in named(empty, "insight_operator_groups", path, group_by="name_shape")}
                  for path in (mine_path, base_path)}
        assert body["total"] == len(shaped[mine_path].keys() | shaped[base_path].keys()) == len(body["data"])
        for item in body["data"]:
            key = (item["diff"]["opName"], item["diff"]["inputShape"], item["diff"]["accCore"])
            assert item["diff"]["opType"] == f"{item['compare']['opType']} -> {item['compare']['opType']}"
            for side, path in (("compare", mine_path), ("baseline", base_path)):
                group = shaped[path].get(key)
                assert item[side]["totalTime"] == (us(group["total_ns"]) if group else "")

        # Communication Operator: each rank's HCCL operators, paired by name in start order
        shown = {**condition(mine_rank, "Communication Operator", top_k=-1), "isCompare": True}
        details = page.body("operator", "operator/details", table(shown, field="duration", order="descend"))
        mine_ops, base_ops = (named(empty, "insight_operators", path, communication=True)
                              for path in (mine_path, base_path))
        assert len(mine_ops) == len(base_ops) == 4
        assert details["total"] == 4 and details["pmuHeaders"] == [] and details["level"] == "l0"
        for item in details["data"]:
            assert set(item["compare"]) == set(item["baseline"]) == set(item["diff"]) == set(DETAIL_KEYS)
            assert item["diff"]["name"] == item["compare"]["name"] == item["baseline"]["name"]
            assert item["diff"]["duration"] == fixed_minus(item["compare"]["duration"], item["baseline"]["duration"])
            assert item["diff"]["type"] == f"{item['compare']['type']}->{item['baseline']['type']}"
        for side, found in (("compare", mine_ops), ("baseline", base_ops)):
            assert sorted((row[side]["name"], row[side]["duration"]) for row in details["data"]) == sorted(
                (op["name"], us(op["dur"], 3)) for op in found)
        durations = [float(item["diff"]["duration"]) for item in details["data"]]
        assert durations == sorted(durations, reverse=True)

        # "Operator" (hidden by the page in compare mode, answered by the server): kernels with their PMU
        # figures, each figure of both ranks subtracted; topK after sorting on the diff's duration
        shown = {**condition(mine_rank, "Operator", top_k=5), "isCompare": True}
        kernels = page.body("operator", "operator/details", table(shown, field="duration", order="descend"))
        assert kernels["total"] == 5 and kernels["level"] == "l1" and "aic_mac_time" in kernels["pmuHeaders"]
        assert all(set(item["diff"]) == set(DETAIL_KEYS) | set(kernels["pmuHeaders"]) for item in kernels["data"])
        paired = [(item["diff"]["aic_mac_time"], item["compare"]["aic_mac_time"], item["baseline"]["aic_mac_time"])
                  for item in kernels["data"] if item["compare"]["aic_mac_time"] and item["baseline"]["aic_mac_time"]]
        assert paired and all(diff == fixed_minus(mine, base) for diff, mine, base in paired)

        # the pies, which the page hides in compare mode, answer for the rank alone, as without a baseline
        chart = {**condition(mine_rank), "isCompare": True}
        assert page.body("operator", "operator/category", chart) == page.body(
            "operator", "operator/category", condition(mine_rank))

        # the Memory page: the curve of both ranks, each on its own time zero, over a window neither thins
        # (DynamicLineChart.tsx memoryCurveGet), and the size slider's bounds (buildSearchSizeParam)
        zeros = {path: extent_in_sql(empty, path)[0] for path in (mine_path, base_path)}
        records = {path: [row for row in named(empty, "insight_memory_records", path, zero_ns=zeros[path])
                          if row["component"] != "PTA"] for path in (mine_path, base_path)}
        window = (0.0, records[mine_path][300]["time_ms"])

        def curve(path: str, compare: bool) -> dict:
            return page.body("memory", "Memory/view/memoryUsage", {
                "rankId": path, "dbPath": path, "type": "Overall", "isCompare": compare,
                "start": str(window[0]), "end": str(window[1])})

        own = {path: curve(path, False) for path in (mine_path, base_path)}
        for path, alone in own.items():  # each rank's own points: its memory records' times (APP, PTA+GE, ...)
            shown = {row["time_ms"] for row in records[path] if window[0] <= row["time_ms"] <= window[1]}
            assert {float(line[0]) for line in alone["lines"]} <= shown and len(alone["lines"]) > 100
        assert sum(len(alone["lines"]) for alone in own.values()) < 1000
        both = curve(mine_path, True)
        mine_legends, base_legends = own[mine_path]["legends"], own[base_path]["legends"]
        assert both["legends"] == [mine_legends[0], *(f"{legend} of Compare" for legend in mine_legends[1:]),
                                   *(f"{legend} of Baseline" for legend in base_legends[1:])]
        assert both["title"] == "" and both["rankOffsetNs"] == 0
        width = len(mine_legends)
        assert [line[:width] for line in both["lines"] if set(line[1:width]) != {"NULL"}] == own[mine_path]["lines"]
        assert [line[:1] + line[width:] for line in both["lines"]
                if set(line[width:]) != {"NULL"}] == own[base_path]["lines"]
        times = [float(line[0]) for line in both["lines"]]
        assert times == sorted(times)
        sizes = {path: [row["size"] for row in named(empty, "insight_memory_operators", path, zero_ns=zeros[path])]
                 for path in (mine_path, base_path)}
        bounds = page.body("memory", "Memory/view/operatorSize", {"rankId": mine_path, "dbPath": mine_path,
                                                                  "type": "Overall", "isCompare": True})
        assert bounds == {"minSize": math.floor(min(sizes[mine_path]) - max(sizes[base_path])),
                          "maxSize": math.ceil(max(sizes[mine_path]) - min(sizes[base_path]))}

        # the operator table (buildDynamicSearchParam, the slider at the bounds): every block of both ranks,
        # one name's blocks paired in the ranks' order, the diff's size the difference, largest first
        blocks = {path: named(empty, "insight_memory_operators", path, zero_ns=zeros[path])
                  for path in (mine_path, base_path)}
        expected = []
        for name in sorted({row["name"] or "Unknown" for rows_ in blocks.values() for row in rows_}):
            mine_blocks, base_blocks = ([row for row in blocks[path] if (row["name"] or "Unknown") == name]
                                        for path in (mine_path, base_path))
            expected += [(name, mine_blocks[i]["size"] if i < len(mine_blocks) else 0.0,
                          base_blocks[i]["size"] if i < len(base_blocks) else 0.0)
                         for i in range(max(len(mine_blocks), len(base_blocks)))]
        table_ = page.body("memory", "Memory/view/operator", {
            "rankId": mine_path, "dbPath": mine_path, "type": "Overall", "currentPage": 1, "pageSize": 1000,
            "searchName": "", "minSize": bounds["minSize"], "maxSize": bounds["maxSize"], "filters": {},
            "rangeFilters": {}, "isOnlyShowAllocatedOrReleasedWithinInterval": False, "isCompare": True,
            "orderBy": "size", "order": "descend"})
        assert table_["totalNum"] == len(expected) == len(table_["operatorDetail"]) >= len(blocks[mine_path])
        shown = sorted((item["diff"]["name"], item["compare"]["size"], item["baseline"]["size"])
                       for item in table_["operatorDetail"])
        assert shown == sorted(expected)
        for item in table_["operatorDetail"]:
            assert item["diff"]["size"] == pytest.approx(item["compare"]["size"] - item["baseline"]["size"], abs=5e-4)
        sizes_shown = [item["diff"]["size"] for item in table_["operatorDetail"]]
        assert sizes_shown == sorted(sizes_shown, reverse=True)

        # the component table (AntTableChart.tsx): both ranks' components by name, "Source" after "Component"
        peaks = {path: {row["component"]: row for row in named(empty, "insight_memory_components", path,
                                                                  zero_ns=zeros[path])}
                 for path in (mine_path, base_path)}
        components = page.body("memory", "Memory/view/component", {
            "rankId": mine_path, "dbPath": mine_path, "currentPage": 1, "pageSize": 100, "orderBy": "totalReserved",
            "order": "descend", "isCompare": True})
        assert [column["key"] for column in components["columnAttr"]] == [
            "component", "source", "totalReserved", "timestamp"]
        names = peaks[mine_path].keys() | peaks[base_path].keys()
        assert components["totalNum"] == len(names) == len(components["componentDetail"]) > 0
        for item in components["componentDetail"]:
            name = item["diff"]["component"]
            for side, path in (("compare", mine_path), ("baseline", base_path)):
                peak = peaks[path].get(name)
                assert item[side]["totalReserved"] == (peak["total_reserved"] if peak else 0.0)
                assert item[side]["timestamp"] == (repr(float(peak["time_ms"])) if peak else "NA")
            assert item["diff"]["totalReserved"] == pytest.approx(
                item["compare"]["totalReserved"] - item["baseline"]["totalReserved"], abs=5e-4)
        reserved = [item["diff"]["totalReserved"] for item in components["componentDetail"]]
        assert reserved == sorted(reserved, reverse=True)

        # Cancel Baseline: compare mode has no baseline any more (the real server's GET_BASELINE_ID_FAILED)
        assert page.body("global", "global/cancelBaseline", {"projectName": "warehouse", "filePath": base_path}) == {}
        refused = page.send("operator", "operator/statistic", table({**condition(mine_rank), "isCompare": True}))
        assert refused["result"] is False and "baseline" in refused["error"]["message"]
        # out of compare mode the table is the rank's alone again
        alone = page.body("operator", "operator/statistic", table(condition(mine_rank)))
        assert {item["baseline"]["count"] for item in alone["data"]} == {""}


def test_post_insight_names_the_baseline_rank(tmp_path, realdata):
    """``POST /api/v1/insight`` keeps no session: ``baselineRankId`` names the baseline rank."""
    run = tmp_path / "level0"
    shutil.copytree(realdata / "msinsight/pytorch/db/level0", run)
    paths = [str(run / f"rank{r}_ascend_pt" / "ASCEND_PROFILER_OUTPUT" / f"ascend_pytorch_profiler_{r}.db")
             for r in (0, 1)]
    database = tmp_path / "w.db"
    build(database, paths)
    client = create_app({"TESTING": True, "DATABASE": str(database)}).test_client()
    base_path, mine_path = paths
    asked = {"rankId": mine_path, "group": "Communication Operator Type", "topK": 15, "current": 1, "pageSize": 10,
             "orderBy": "", "order": "", "filters": [], "isCompare": True}
    (item,) = body(client, "operator/statistic", {**asked, "baselineRankId": base_path})["data"]
    for side, path in (("compare", mine_path), ("baseline", base_path)):
        (group,) = named(database, "insight_operator_groups", path, group_by="communication_type")
        assert (item[side]["opType"], item[side]["count"], item[side]["totalTime"]) == (
            group["op_type"], str(group["count"]), us(group["total_ns"]))
    assert item["diff"]["totalTime"] == fixed_minus(item["compare"]["totalTime"], item["baseline"]["totalTime"])
    refused = ask(client, "operator/statistic", asked)
    assert refused["result"] is False and "baseline rank" in refused["error"]["message"]
    unknown = ask(client, "operator/statistic", {**asked, "baselineRankId": "nowhere"})
    assert unknown["result"] is False and unknown["body"]["cards"] == paths


STATIC_RANK = "msinsight/server_test_data/test_rank_1"


def test_two_ranks_compare_a_static_graph(empty, root, realdata):
    """The Memory page of a static graph in compare mode (StaticLineChart.tsx staticOpMemoryGraphGet,
    MemoryDetailTable.tsx buildStaticSearchParam and buildSearchSizeParam): the real rank, and as baseline
    a copy whose graph 0 lacks its largest operator (``sqrt_01``)."""
    mine_folder, base_folder = root / "mine" / "test_rank_1", root / "base" / "test_rank_1"
    shutil.copytree(realdata / STATIC_RANK, mine_folder)
    shutil.copytree(realdata / STATIC_RANK, base_folder)
    static = base_folder / "ASCEND_PROFILER_OUTPUT" / "static_op_mem.csv"
    lines = static.read_text().splitlines(keepends=True)
    static.write_text("".join(line for line in lines if not line.startswith("host,sqrt_01,0,0,")))
    with opened(empty, root, mine_folder) as (page, mine_body):
        base_body = imported(page, base_folder)
        (mine_card,), (base_card,) = mine_body["result"], base_body["result"]
        mine_path, base_path = mine_card["rankId"], base_card["rankId"]
        set_baseline(page, tree_node(page, base_path))
        rank = {"rankId": mine_path, "dbPath": mine_path, "graphId": "0"}

        own = {path: page.body("memory", "Memory/view/staticOpMemoryGraph",
                               {**rank, "rankId": path, "dbPath": path, "isCompare": False})
               for path in (mine_path, base_path)}
        both = page.body("memory", "Memory/view/staticOpMemoryGraph", {**rank, "isCompare": True})
        assert both["legends"] == ["Node Index", "Size of Compare", "Total Size of Compare", "Size of Baseline",
                                   "Total Size of Baseline"]
        assert [line[:3] for line in both["lines"] if line[1] != "NULL"] == own[mine_path]["lines"]
        assert [line[:1] + line[3:] for line in both["lines"] if line[3] != "NULL"] == own[base_path]["lines"]
        indexes = [int(line[0]) for line in both["lines"]]
        assert indexes == sorted(set(indexes))

        ops = {path: [row for row in named(empty, "insight_memory_static_ops", path)
                      if row["graph_id"] == 0 and row["op_name"] != "TOTAL"] for path in (mine_path, base_path)}
        assert len(ops[mine_path]) == len(ops[base_path]) + 1
        sizes = page.body("memory", "Memory/view/staticOpMemorySize", {**rank, "isCompare": True})
        mine_kb, base_kb = ([row["size_kb"] for row in ops[path]] for path in (mine_path, base_path))
        assert sizes == {"minSize": min(mine_kb) - max(base_kb), "maxSize": max(mine_kb) - min(base_kb)}
        listed = page.body("memory", "Memory/view/staticOpMemoryList", {
            **rank, "currentPage": 1, "pageSize": 100, "searchName": "", "isCompare": True, "order": "descend",
            "orderBy": "size"})
        assert listed["totalNum"] == len(ops[mine_path]) == len(listed["operatorDetail"])
        # every operator paired with its copy (no difference) but sqrt_01, beside the server's empty operator
        (alone,) = [item for item in listed["operatorDetail"] if item["baseline"]["opName"] == ""]
        assert alone["diff"]["opName"] == alone["compare"]["opName"] == "sqrt_01"
        assert alone["diff"]["size"] == alone["compare"]["size"] == listed["operatorDetail"][0]["diff"]["size"] > 0
        assert alone["baseline"] == {"deviceId": "", "opName": "", "nodeIndexStart": 0, "nodeIndexEnd": 0, "size": 0.0}
        assert all(item["diff"]["size"] == 0 and item["diff"]["nodeIndexStart"] == 0
                   for item in listed["operatorDetail"] if item is not alone)
