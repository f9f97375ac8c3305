"""The Operator page's Export button of MindStudio Insight's frontend, through ``warehouse serve``.

A two-rank run is imported over a real WebSocket; once ``parse/operatorCompleted`` listed its ranks the
page's Export button (Ascend/msinsight ``modules/operator/src/components/operator/DetailTable.tsx``
ExportBtn, ``RequestUtils.ts`` exportOperatorDetail) sends the page's ``rankId``, ``dbPath``, ``group``,
``topK`` and ``isCompare`` as ``operator/exportDetails``; the answer is the real server's
``{exceedingFileLimit, filePath}`` (``server/src/modules/operator/protocol/OperatorProtocolUtil.cpp``
ToResponseJson<OperatorExportDetailsResponse>) and the file holds the table under the real server's
header (``handler/ExportOpDetailsHandler.cpp``), its rows equal to the named queries operator/statistic and
operator/details answer from (``insight_operator_groups``, ``insight_operators``) and to those answers.
"""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest

from test_insight_operator import DB_RUN, condition, ranks_of, table, us
from test_insight_rank_compare import named, set_baseline, tree_node
from test_insight_timeline import opened
from test_insight_ws import empty, root  # noqa: F401 - fixtures

# each test runs `warehouse serve` in a child process and imports a run: seconds each
pytestmark = pytest.mark.slow


def export(page, shown: dict) -> list[dict]:
    """ExportBtn's request for the page's condition; the file's rows (checked to be beside the warehouse)."""
    answer = page.body("operator", "operator/exportDetails", {
        key: shown[key] for key in ("rankId", "dbPath", "group", "topK", "isCompare")})
    assert set(answer) == {"exceedingFileLimit", "filePath"} and answer["exceedingFileLimit"] is False
    return answer["filePath"]


def read(path: str) -> tuple[list[str], list[dict]]:
    with open(path, newline="", encoding="utf-8") as written:
        found = list(csv.reader(written))
    return found[0], [dict(zip(found[0], row)) for row in found[1:]]


def test_a_rank_table_exports_as_the_page_shows_it(empty, root, realdata):
    run = root / "level1"
    shutil.copytree(realdata / DB_RUN, run)
    with opened(empty, root, run) as (page, _):
        base_rank, rank = ranks_of(page)
        path = rank["dbPath"]

        # Operator Type, the top 15: one line per group, most time first
        shown = condition(rank)
        written = export(page, shown)
        assert Path(written).parent == empty.parent
        assert Path(written).name.startswith("operator_detail_group_by_Operator Type_1_")
        header, found = read(written)
        assert header == ["opType", "accCore", "count", "totalTime", "avgTime", "maxTime", "minTime"]
        groups = named(empty, "insight_operator_groups", path, group_by="op_type")[:15]
        assert [(row["opType"], row["accCore"], row["count"], row["totalTime"], row["maxTime"], row["minTime"])
                for row in found] == [
            (g["op_type"], g["acc_core"] or "", str(g["count"]), us(g["total_ns"]), us(g["max_ns"]),
             us(g["min_ns"])) for g in groups]
        # the same rows the table shows, all on one page
        shown_rows = page.body("operator", "operator/statistic", table(shown, page_size=100))["data"]
        assert found == [{key: item["compare"][key] for key in header} for item in shown_rows]

        # Input Shape, every group (topK -1): shapes hold commas, quoted so the file reads back
        shown = condition(rank, "Input Shape", top_k=-1)
        header, found = read(export(page, shown))
        assert header[:2] == ["opName", "inputShape"]
        groups = named(empty, "insight_operator_groups", path, group_by="name_shape")
        assert [(row["opName"], row["inputShape"], row["count"]) for row in found] == [
            (g["op_name"], g["input_shape"] or "", str(g["count"])) for g in groups]
        assert any("," in row["inputShape"] for row in found)

        # Operator: the 15 longest kernels one by one, then their PMU figures under their names
        shown = condition(rank, "Operator")
        header, found = read(export(page, shown))
        listed = page.body("operator", "operator/details", table(shown, page_size=100))
        assert header == ["name", "type", "accCore", "startTime", "duration", "waitTime", "blockDim", "inputShape",
                          "inputType", "inputFormat", "outputShape", "outputType", "outputFormat",
                          *listed["pmuHeaders"]]
        kernels = named(empty, "insight_operators", path, communication=False, top_k=15)
        assert [(row["name"], row["duration"]) for row in found] == [(k["name"], us(k["dur"], 3)) for k in kernels]
        assert found == [{key: item["compare"]["blockNum" if key == "blockDim" else key] for key in header}
                         for item in listed["data"]]

        # Communication Operator: the rank db's four all-reduces
        header, found = read(export(page, condition(rank, "Communication Operator", top_k=-1)))
        assert header == ["name", "type", "startTime", "duration", "waitTime"]
        hccl = named(empty, "insight_operators", path, communication=True)
        assert [(row["name"], row["duration"]) for row in found] == [(h["name"], us(h["dur"], 3)) for h in hccl]
        assert len(found) == 4

        # compare mode, rank 0 the baseline: the diff side of the paired table
        set_baseline(page, tree_node(page, base_rank["dbPath"]))
        shown = {**condition(rank, "Communication Operator Type"), "isCompare": True}
        header, found = read(export(page, shown))
        assert header == ["opType", "count", "totalTime", "avgTime", "maxTime", "minTime"]
        paired = page.body("operator", "operator/statistic", table(shown, page_size=100))["data"]
        assert found == [{key: item["diff"][key] for key in header} for item in paired] and found
