"""The Operator page of MindStudio Insight's frontend on training runs, through ``warehouse serve``.

A run is imported over a real WebSocket; ``parse/operatorCompleted`` must name each rank (the frame's
``modules/framework/src/connection/interceptorHandler.ts`` parseOperatorSuccessHandler builds the
page's rank list from its ``rankList`` and ``dbPath``), then the page's own requests are sent as
Ascend/msinsight ``modules/operator/src/components`` sends them: the two pies with the page's
condition (``operator/DetailChart.tsx`` updateOpTypeData, updateComputeData: ``operator/category``,
``operator/compute_unit``), the table with the condition, its page, sorter and filters
(``operator/DetailTable.tsx`` queryOperatorData: ``operator/statistic`` for a grouping,
``operator/details`` for a list) and a grouped row opened (queryOperatorDetailData:
``operator/more_info``). Answers are in the shapes of ``server/src/modules/operator/protocol/
OperatorProtocolUtil.cpp``; values equal SQL over the warehouse's kernels and the profiler's own
op_statistic.csv.
"""

from __future__ import annotations

import csv
import json
import shutil

import pytest

from factories.text_exports import HcclKernelRowFactory, KernelDetailsFactory, KernelRowFactory, ProfilerInfoFactory
from test_insight_timeline import opened, sql
from test_insight_ws import empty, root  # noqa: F401 - fixtures

# each test runs `warehouse serve` in a child process and imports a run: seconds each
pytestmark = pytest.mark.slow

DB_RUN = "msinsight/pytorch/db/level1"
TEXT_RANK = "msinsight/pytorch/text/level1/rank0_ascend_pt"
STATISTIC_KEYS = {"opType", "opName", "accCore", "inputShape", "totalTime", "count", "avgTime", "maxTime", "minTime"}
DETAIL_KEYS = {"name", "type", "accCore", "startTime", "duration", "waitTime", "blockNum", "inputShape", "inputType",
               "inputFormat", "outputShape", "outputType", "outputFormat"}
#: a rank's compute kernels in SQL: (op type, core) -> (count, total ns)
KERNELS_BY_TYPE = ("SELECT k.op_type, k.accelerator_core, count(*), sum(k.dur) FROM kernel AS k "
                   "JOIN answer_source AS a ON a.source_id = k.source_id AND a.fact = 'kernel' "
                   "WHERE k.rank_id = ? AND k.op_class IS NOT 'communication' GROUP BY k.op_type, k.accelerator_core")


def ranks_of(page) -> list[dict]:
    """The rank list the frame builds from parse/operatorCompleted: (rankId, dbPath) in event order."""
    events = [event for event in page.events if event["event"] == "parse/operatorCompleted"]
    for event in events:
        assert event["moduleName"] == "operator"
        assert set(event["body"]) == {"rankId", "status", "error", "dbPath", "rankList"}
        assert event["body"]["status"] is True and event["body"]["error"] == ""
        assert [rank["rankId"] for rank in event["body"]["rankList"]] == [event["body"]["rankId"]]
    return [event["body"] for event in events]


def condition(rank: dict, group: str = "Operator Type", top_k: int = 15) -> dict:
    """Filter.tsx's condition for a rank of the list (defaultCondition, then the rank chosen)."""
    info = rank["rankList"][0]
    return {"rankInfoKey": f"{info['host']}{info['rankName']}{info['deviceId']}", "rankId": rank["rankId"],
            "dbPath": rank["dbPath"], "group": group, "topK": top_k, "custom": 0, "host": "", "isCompare": False}


def table(shown: dict, current: int = 1, page_size: int = 10, field: str = "", order: str = "",
          filters: tuple = ()) -> dict:
    """DetailTable.tsx queryOperatorData's params: the full condition, orderBy and the filters as JSON texts."""
    full = {"isCompare": shown["isCompare"], "current": current, "pageSize": page_size, "field": field,
            "order": order, "group": shown["group"], "rankId": shown["rankId"], "dbPath": shown["dbPath"],
            "topK": shown["topK"], "type": [], "opType": [], "name": [], "opName": [], "accCore": []}
    return {**full, "orderBy": field, "filters": [json.dumps({"columnName": c, "value": v}) for c, v in filters]}


def opened_row(params: dict, row: dict) -> dict:
    """queryOperatorDetailData's params for a grouped row opened."""
    return {**params, "opType": row["opType"], "opName": row["opName"], "shape": row["inputShape"],
            "accCore": row["accCore"]}


def statistic_rows(body: dict) -> list[dict]:
    for item in body["data"]:
        assert set(item) == {"diff", "baseline", "compare"}
        assert set(item["compare"]) == STATISTIC_KEYS and set(item["baseline"]) == STATISTIC_KEYS
        assert set(item["baseline"].values()) == {""}
    return [item["compare"] for item in body["data"]]


def us(ns: int, digits: int = 2) -> str:
    return f"{round(ns / 1000, digits):.3f}"


def test_a_rank_dbs_operators_by_type_equal_its_kernels(empty, root, realdata):
    run = root / "level1"
    shutil.copytree(realdata / DB_RUN, run)
    with opened(empty, root, run) as (page, _):
        listed = ranks_of(page)
        assert [rank["rankList"][0]["rankName"] for rank in listed] == ["0", "1"]
        rank = listed[1]
        shown = condition(rank)
        pie = page.body("operator", "operator/category", shown)["data"]
        expected = sorted(sql(empty, KERNELS_BY_TYPE, 1), key=lambda row: -row[3])
        assert [(s["name"], s["duration"]) for s in pie] == [(t, round(total / 1000, 2)) for t, _, _, total in
                                                             expected[:15]]
        cores = page.body("operator", "operator/compute_unit", shown)["data"]
        assert {c["name"] for c in cores} == {core for _, core, _, _ in expected[:15]}
        assert sum(c["duration"] for c in cores) == pytest.approx(sum(s["duration"] for s in pie))

        body = page.body("operator", "operator/statistic", table(shown))
        found = statistic_rows(body)
        assert body["total"] == 15 and len(found) == 10
        for row, (op_type, core, count, total) in zip(found, expected):
            assert (row["opType"], row["accCore"], row["count"], row["totalTime"]) == (
                op_type, core, str(count), us(total))
        # See More of the first row: its kernels, longest first, in us with 3 decimals
        more = page.body("operator", "operator/more_info", opened_row(table(shown), found[0]))
        durations = [d for (d,) in sql(empty, "SELECT k.dur FROM kernel AS k JOIN answer_source AS a ON "
                                              "a.source_id = k.source_id AND a.fact = 'kernel' WHERE k.rank_id = 1 "
                                              "AND k.op_type = ? AND k.accelerator_core = ? ORDER BY k.dur DESC",
                                       found[0]["opType"], found[0]["accCore"])]
        assert more["total"] == len(durations) == int(found[0]["count"])
        assert [row["duration"] for row in more["data"]] == [us(d, 3) for d in durations[:10]]
        # each kernel with the rank db's TASK_PMU_INFO figures, named as the db names them
        assert more["level"] == "l1" and {"aic_total_time", "aic_mac_time", "aiv_vec_ratio"} <= set(more["pmuHeaders"])
        assert all(set(row) == DETAIL_KEYS | set(more["pmuHeaders"]) for row in more["data"])
        (mac,) = sql(empty, "SELECT aic_mac_ns FROM kernel AS k JOIN answer_source AS a ON a.source_id = k.source_id "
                            "AND a.fact = 'kernel' WHERE k.rank_id = 1 AND k.name = ? AND k.dur = ?",
                     more["data"][0]["name"], durations[0])
        assert float(more["data"][0]["aic_mac_time"]) == mac[0]

        # the four HCCL operators of the rank db's COMMUNICATION_OP, by type
        shown = condition(rank, "Communication Operator Type")
        found = statistic_rows(page.body("operator", "operator/statistic", table(shown)))
        (count, total), = sql(empty, "SELECT count(*), sum(dur) FROM hccl_operator WHERE rank_id = 1")
        assert [(r["opType"], r["count"], r["totalTime"]) for r in found] == [("hcom_allReduce_", "4", us(total))]
        assert count == 4


def test_a_text_exports_operators_equal_its_op_statistic(empty, root, realdata):
    rank_folder = root / "rank0"
    shutil.copytree(realdata / TEXT_RANK, rank_folder)
    with opened(empty, root, rank_folder) as (page, _):
        (rank,) = ranks_of(page)
        shown = condition(rank, top_k=-1)
        body = page.body("operator", "operator/statistic", table(shown, page_size=100))
        found = {(row["opType"], row["accCore"]): row for row in statistic_rows(body)}
        with open(rank_folder / "ASCEND_PROFILER_OUTPUT/op_statistic.csv", newline="") as written:
            written = list(csv.DictReader(written))
        assert body["total"] == len(written) == 33
        for line in written:
            row = found[line["OP Type"], line["Core Type"]]
            assert row["count"] == line["Count"]
            # the page rounds to 0.01 us (the real server's rounding); op_statistic.csv sums the durations
            # before kernel_details.csv rounded each to 1 ns, so its total may be up to 0.5 ns a kernel off
            slack = 0.005 + int(line["Count"]) * 0.0005
            assert float(row["totalTime"]) == pytest.approx(float(line["Total Time(us)"]), abs=slack)
            for key, column in (("minTime", "Min Time(us)"), ("maxTime", "Max Time(us)")):
                assert float(row[key]) == pytest.approx(float(line[column]), abs=0.005)

        # Computing Operator: the kernels one by one, longest first; sorted by start, ascending
        shown = condition(rank, "Operator")
        body = page.body("operator", "operator/details", table(shown, field="startTime", order="ascend"))
        assert body["total"] == 15 and body["level"] == "l1"
        listed = [item["compare"] for item in body["data"]]
        # the PMU columns: kernel_details.csv's from aicore_time(us) on, named as the real server names them
        with open(rank_folder / "ASCEND_PROFILER_OUTPUT/kernel_details.csv", newline="") as written:
            kernels = list(csv.DictReader(written))
        header = list(kernels[0])
        pmu = header[header.index("aicore_time(us)"):]
        assert body["pmuHeaders"] == sorted(
            name.replace("(us)", "_us_").replace("(%)", "_PCT_") for name in pmu)
        for row in listed:
            (line,) = [line for line in kernels if line["Name"] == row["name"]
                       and us(round(float(line["Duration(us)"]) * 1000), 3) == row["duration"]]
            for name in pmu:
                shown_name = name.replace("(us)", "_us_").replace("(%)", "_PCT_")
                assert float(row[shown_name]) == pytest.approx(float(line[name])), (row["name"], name)
        assert all(set(item["baseline"].values()) == {""} for item in body["data"])
        starts = [float(row["startTime"]) for row in listed]
        assert starts == sorted(starts)
        longest = sql(empty, "SELECT name, dur FROM kernel WHERE op_class IS NOT 'communication' "
                             "ORDER BY dur DESC LIMIT 15")
        assert {(row["name"], row["duration"]) for row in listed} <= {(n, us(d, 3)) for n, d in longest}


def write_rank(folder, rank: int, kernels: list[dict]) -> None:
    """A text export's rank for the page: profiler_info_{rank}.json and kernel_details.csv."""
    info = ProfilerInfoFactory.build(path=None).document | {"rank_id": rank}
    ProfilerInfoFactory(path=folder / f"profiler_info_{rank}.json", document=info)
    KernelDetailsFactory(path=folder / "ASCEND_PROFILER_OUTPUT/kernel_details.csv", rows=kernels)


def test_a_cluster_rank_pages_sorts_filters_and_opens_its_groups(empty, root):
    run = root / "cluster"
    # rank 0: MatMulV2 10, 20, 30 us on AI_CORE, RmsNorm 5 us twice, one all-reduce
    write_rank(run / "rank0_ascend_pt", 0, [
        *(KernelRowFactory(name=f"MatMulV2_{d}", duration=d, wait="1.5") for d in ("10", "20", "30")),
        *(KernelRowFactory(name=f"RmsNorm_{n}", type="RmsNorm", core="AI_VECTOR_CORE", duration="5",
                           input_shapes="8,4") for n in range(2)),
        HcclKernelRowFactory(duration="100")])
    # rank 1: 51 operator types of 1 to 51 us, more than one pie shows
    write_rank(run / "rank1_ascend_pt", 1, [
        KernelRowFactory(name=f"Op{n}", type=f"Type{n}", duration=str(n)) for n in range(1, 52)])
    with opened(empty, root, run) as (page, body):
        assert body["isCluster"] is True
        zero, one = ranks_of(page)
        shown = condition(zero)
        assert page.body("operator", "operator/category", shown) == {"data": [
            {"name": "MatMulV2", "duration": 60.0}, {"name": "RmsNorm", "duration": 10.0}]}
        assert page.body("operator", "operator/compute_unit", shown) == {"data": [
            {"name": "AI_CORE", "duration": 60.0}, {"name": "AI_VECTOR_CORE", "duration": 10.0}]}
        found = statistic_rows(page.body("operator", "operator/statistic", table(shown)))
        assert found[0] == {"opType": "MatMulV2", "opName": "", "accCore": "AI_CORE", "inputShape": "",
                            "totalTime": "60.000", "count": "3", "avgTime": "20.000", "maxTime": "30.000",
                            "minTime": "10.000"}
        # sorted by count, ascending; filtered by type; a page of one
        by_count = statistic_rows(page.body("operator", "operator/statistic", table(shown, field="count",
                                                                                      order="ascend")))
        assert [row["opType"] for row in by_count] == ["RmsNorm", "MatMulV2"]
        filtered = page.body("operator", "operator/statistic", table(shown, filters=(("opType", "norm"),)))
        assert filtered["total"] == 1 and statistic_rows(filtered)[0]["opType"] == "RmsNorm"
        second = page.body("operator", "operator/statistic", table(shown, current=2, page_size=1))
        assert second["total"] == 2 and statistic_rows(second)[0]["opType"] == "RmsNorm"

        # by name and input shapes: the two RmsNorm kernels are two groups; one opened
        shown = condition(zero, "Input Shape")
        found = statistic_rows(page.body("operator", "operator/statistic", table(shown)))
        norm = next(row for row in found if row["opName"] == "RmsNorm_1")
        assert (norm["inputShape"], norm["count"], norm["totalTime"]) == ("8,4", "1", "5.000")
        assert page.body("operator", "operator/category", shown)["data"][-1]["name"] in (
            "RmsNorm_0[8,4]", "RmsNorm_1[8,4]")
        more = page.body("operator", "operator/more_info", opened_row(table(shown), norm))
        assert more["total"] == 1 and more["data"][0]["name"] == "RmsNorm_1"

        # the list of kernels: the wait and block number as written
        listed = page.body("operator", "operator/details", table(condition(zero, "Operator")))
        assert listed["total"] == 5
        first = listed["data"][0]["compare"]
        assert (first["name"], first["duration"], first["waitTime"], first["blockNum"], first["accCore"]) == (
            "MatMulV2_30", "30.000", "1.500", "24", "AI_CORE")
        hccl = page.body("operator", "operator/details", table(condition(zero, "Communication Operator")))
        assert [(item["compare"]["type"], item["compare"]["duration"], item["compare"]["waitTime"])
                for item in hccl["data"]] == [("hcom_allReduce_", "100.000", "590.331")]

        # rank 1, all types: the 50th slice of the pie and after are one, "Others" (1 + 2 us)
        pie = page.body("operator", "operator/category", condition(one, top_k=-1))["data"]
        assert len(pie) == 50 and pie[0] == {"name": "Type51", "duration": 51.0}
        assert pie[-1] == {"name": "Others", "duration": 3.0}
        # a group that is not the frontend's is refused with the real server's reason in words
        refused = page.send("operator", "operator/statistic", table(condition(one, "Kernel")))
        assert refused["result"] is False and "group must be one of" in refused["error"]["message"]
