"""POST /api/v1/insight in compare mode (issue 17 item 3): two profiles of one operator, the
detail commands with ``isCompared`` and ``baselineRankId`` answer compare / baseline / diff as
the MindStudio Insight server does (service/insight/compare.py), exact diff values checked."""

from __future__ import annotations

import json

import pytest

from factories.op_profile import (
    BaseInfoFactory, ComputeLoadFactory, MemoryGraphFactory, MemoryTableFactory, OpProfileFactory, json_block,
)
from service import create_app
from service.insight import cards
from service.insight.compare import minus, request_minus
from warehouse import db, ingest

API = "/api/v1/insight"


def build(path, files) -> None:
    conn = db.connect(path)
    try:
        results = ingest.ingest_paths(conn, files)
    finally:
        conn.close()
    assert [r.status for r in results] == ["ok"] * len(files), [r.error for r in results]


def ask(client, command: str, params: dict) -> dict:
    response = client.post(API, json={"id": 1, "moduleName": "source", "type": "request", "command": command,
                                      "params": params})
    assert response.status_code == 200
    return response.get_json()


def body(client, command: str, params: dict) -> dict:
    answer = ask(client, command, params)
    assert answer["result"] is True, answer["body"]
    return answer["body"]

#: the baseline differs from the factories' defaults (the compare card) in known values
BASE_INFO = BaseInfoFactory(duration=12.25, block_detail=[{"block_id": 0, "core_type": "aiv", "duration": 4.0}],
                            advice=["use more cores"])
LOAD = [
    {"block_id": "0", "block_type": "cube0", "name": "Cube All Active", "origin_value": 40000.0, "unit": 3,
     "value": 10.0},
    {"block_id": "2", "block_type": "cube1", "name": "Only Here", "unit": 3, "value": 1},
]
GRAPH = [
    {"Cube": {"cycle": 40000, "ratio": 10.0, "total_cycles": 400000},
     "L2cache": {"hit": "60000", "hit_ratio": "85.5", "miss": "7000", "total_request": "67000"},
     "advice": ["baseline advice"], "core_no": "0", "op_type": "mix", "soc": "910B",
     "memory_unit": [
         {"bandwidth": "18.5", "display": 1, "memory_path": 0, "peak_ratio": "NA", "request": "40000"},
         {"bandwidth": 1, "display": 1, "memory_path": "UB_TO_GM", "peak_ratio": 2, "request": 5}]},
    {"L2cache": {"hit": "1", "hit_ratio": "50", "miss": "1", "total_request": "2"},
     "advice": [], "core_no": "1", "op_type": "vec", "soc": "910B", "memory_unit": []},
]
TABLES = [{
    "advice": ["baseline table advice"], "block_id": "0", "table_op_type": "mix",
    "table_detail": [
        {"header_name": ["", "hit", "miss", "total", "hit rate(%)"],
         "row": [{"name": "L2 Cache Write", "value": ["21000", "4000", "25000", "80.5"]},
                 {"name": "Only Here", "value": ["1", "1", "2", "50"]}],
         "size": [2, 4], "table_name": "Cache"},
        {"header_name": ["", "x"], "row": [{"name": "r", "value": ["1"]}], "size": [1, 1], "table_name": "UB"},
    ],
}]


@pytest.fixture
def profiles(tmp_path):
    """Two profiles of add_custom: the factories' defaults (compare) and the baseline above."""
    (tmp_path / "current").mkdir()
    current = OpProfileFactory(path=tmp_path / "current" / "visualize_data.bin", blocks=[
        json_block(0x05, BaseInfoFactory()), json_block(0x06, ComputeLoadFactory()),
        json_block(0x07, ComputeLoadFactory(advice=["table advice"])), json_block(0x08, MemoryGraphFactory()),
        json_block(0x09, MemoryTableFactory())])
    (tmp_path / "baseline").mkdir()
    baseline = OpProfileFactory(path=tmp_path / "baseline" / "visualize_data.bin", blocks=[
        json_block(0x05, BASE_INFO), json_block(0x06, ComputeLoadFactory(subblock_detail=LOAD)),
        json_block(0x07, ComputeLoadFactory(subblock_detail=LOAD[:1], advice=["other"])),
        json_block(0x08, MemoryGraphFactory(core_memory_map=GRAPH)),
        json_block(0x09, MemoryTableFactory(table_per_block=TABLES))])
    path = tmp_path / "warehouse.db"
    build(path, [current.path, baseline.path])
    conn = db.connect(path)
    try:
        ids = {c["cardPath"].split("/")[-2]: c["rankId"] for c in cards.listing(conn)}
    finally:
        conn.close()
    client = create_app({"TESTING": True, "DATABASE": str(path)}).test_client()
    return client, ids["current"], ids["baseline"]


def compared(profiles, command, **params):
    client, current, baseline = profiles
    return body(client, command, {"cardId": current, "isCompared": True, "baselineRankId": baseline, **params})


def flat(profiles, command, card, **params):
    client = profiles[0]
    return body(client, command, {"cardId": profiles[1 if card == "current" else 2], **params})


def test_number_rules_of_the_real_server():
    # NumberUtilTest.cpp of Ascend/msinsight (StringDoubleMinusWithoutTrailingZero, StringUnsignedLongLongMinus)
    assert minus("111111.555555", "0.555555") == "111111"
    assert minus("111111.555555", "0.555550", 2) == "111111.000005"
    assert minus("", "") == minus("aa", "") == minus("", "aa") == ""
    assert [request_minus(a, b) for a, b in [("1", "0"), ("0", "1"), ("2", "107")]] == ["1", "-1", "-105"]
    assert request_minus(str(2 ** 64 - 1), "0") == str(2 ** 63 - 1)
    assert request_minus("0", str(2 ** 64 - 1)) == str(-2 ** 63)
    assert minus("11.15", "10.0") == "1.15" and minus("NA", "5") == "-5" and minus("90.55011", "85.5") == "5.0501"


def test_base_info_compare_and_baseline(profiles):
    answer = compared(profiles, "source/details/baseInfo")
    # ToResponseJson<DetailsBaseInfoResponse>: compare and baseline only, the real server builds no diff
    assert set(answer) == {"compare", "baseline"}
    assert answer["compare"] == flat(profiles, "source/details/baseInfo", "current")["compare"]
    assert answer["baseline"] == flat(profiles, "source/details/baseInfo", "baseline")["compare"]
    assert (answer["compare"]["duration"], answer["baseline"]["duration"]) == ("13.5", "12.25")
    assert answer["baseline"]["blockDetail"]["row"] == [{"value": ["0", "aiv", "4.0"]}]
    assert answer["baseline"]["advice"] == ["use more cores"]


def test_compute_workload_diff(profiles):
    chart_item = {"blockId": "0", "blockType": "cube0", "name": "Cube All Active", "unit": "PRE"}
    only_here = {"blockId": "1", "blockType": "vector0", "name": "ALL_ACTIVE", "unit": "%"}
    assert compared(profiles, "source/details/computeworkload") == {
        "blockIdList": ["0", "1"],
        "chartData": {"detailDataList": [
            {"compare": {**chart_item, "value": "11.15", "originValue": "46050.0"},
             "baseline": {**chart_item, "value": "10.0", "originValue": "40000.0"},
             "diff": {**chart_item, "value": "1.15", "originValue": "6050"}},
            {"compare": {**only_here, "value": "73.6", "originValue": ""},
             "baseline": {**only_here, "value": "-", "originValue": "-"},
             "diff": {**only_here, "value": "-", "originValue": "-"}},
        ], "advice": []},
        "tableData": {"detailDataList": [
            {"compare": {**chart_item, "value": "11.15", "originValue": "46050.0"},
             "baseline": {**chart_item, "value": "10.0", "originValue": "40000.0"},
             "diff": {**chart_item, "value": "1.15", "originValue": "6050"}},
            {"compare": {**only_here, "value": "73.6", "originValue": ""},
             "baseline": {**only_here, "value": "-", "originValue": "-"},
             "diff": {**only_here, "value": "-", "originValue": "-"}},
        ], "advice": []},
    }


EMPTY_UNIT = {"request": "", "requestSuffix": "", "display": False, "peakRatio": "", "bandwidth": "",
              "bandwidthSuffix": "", "memoryPath": ""}
NO_SUFFIX = {"requestSuffix": "", "bandwidthSuffix": ""}
EMPTY_L2 = {"hitRatio": "", "hit": "", "totalRequest": "", "miss": ""}
EMPTY_RATE = {"cycle": "", "totalCycles": "", "ratio": ""}


def test_memory_graph_diff(profiles):
    block0 = {
        "advice": [],
        "blockId": "0",
        "l2Cache": {"compare": {"hitRatio": "90.550110", "hit": "66845", "totalRequest": "73821", "miss": "6976"},
                    "baseline": {"hitRatio": "85.5", "hit": "60000", "totalRequest": "67000", "miss": "7000"},
                    "diff": {"hitRatio": "5.0501", "hit": "6845", "totalRequest": "6821", "miss": "-24"}},
        "blockType": "mix",
        "chipType": "910B",
        "memoryUnit": [
            # "NA" minus "NA": both count as 0 (NumberUtil), so the diff is "0"
            {"compare": {"request": "47847", "display": True, "peakRatio": "NA", "bandwidth": "19.008541",
                         "memoryPath": "0", **NO_SUFFIX},
             "baseline": {"request": "40000", "display": True, "peakRatio": "NA", "bandwidth": "18.5",
                          "memoryPath": "0", **NO_SUFFIX},
             "diff": {"request": "7847", "display": True, "peakRatio": "0", "bandwidth": "0.509",
                      "memoryPath": "0", **NO_SUFFIX}},
            {"compare": {"request": "12", "display": False, "peakRatio": "-1", "bandwidth": "4.5",
                         "memoryPath": "GM_TO_UB", **NO_SUFFIX}, "baseline": EMPTY_UNIT, "diff": EMPTY_UNIT},
            {"compare": EMPTY_UNIT, "baseline": {"request": "5", "display": True, "peakRatio": "2",
                                                 "bandwidth": "1", "memoryPath": "UB_TO_GM", **NO_SUFFIX},
             "diff": EMPTY_UNIT},
        ],
        "vector": {"compare": {"cycle": "6592", "totalCycles": "219790", "ratio": "2.5"}, "baseline": EMPTY_RATE,
                   "diff": EMPTY_RATE},
        "vector1": {"compare": EMPTY_RATE, "baseline": EMPTY_RATE, "diff": EMPTY_RATE},
        "cube": {"compare": {"cycle": "46050", "totalCycles": "413123", "ratio": "11.25"},
                 "baseline": {"cycle": "40000", "totalCycles": "400000", "ratio": "10.0"},
                 "diff": {"cycle": "6050", "totalCycles": "13123", "ratio": "1.25"}},
    }
    assert compared(profiles, "source/details/memoryGraph", blockId="0") == {"coreMemory": [block0]}
    # every block: the baseline's block 1 joins with an empty compare side (real server: a new MemoryGraph)
    blocks = compared(profiles, "source/details/memoryGraph")["coreMemory"]
    assert blocks[0] == block0 and len(blocks) == 2
    assert blocks[1] == {
        "advice": [], "blockId": "1",
        "l2Cache": {"compare": EMPTY_L2, "baseline": {"hitRatio": "50", "hit": "1", "totalRequest": "2",
                                                      "miss": "1"}, "diff": EMPTY_L2},
        "blockType": "vec", "chipType": "910B", "memoryUnit": [],
        **{key: {"compare": EMPTY_RATE, "baseline": EMPTY_RATE, "diff": EMPTY_RATE}
           for key in ("vector", "vector1", "cube")},
    }


def test_memory_table_diff(profiles):
    dashes = ["-", "-", "-", "-"]
    assert compared(profiles, "source/details/memoryTable", blockId="0") == {"memoryTable": [{
        "advice": ["aicore MTE2 bandwidth utilization lower than 80% when active"],
        "blockId": "0",
        "tableOpType": "mix",
        "tableDetail": [
            {"headerName": ["", "hit", "miss", "total", "hit rate(%)"], "tableName": "Cache", "size": ["5", "2"],
             "row": [
                 {"compare": {"name": "L2 Cache Write", "value": ["21468", "4480", "25948", "82.734695"]},
                  "baseline": {"name": "L2 Cache Write", "value": ["21000", "4000", "25000", "80.5"]},
                  "diff": {"name": "L2 Cache Write", "value": ["468", "480", "948", "2.235"]}},
                 {"compare": {"name": "iCache Total", "value": ["40198", "238", "40436", "99.411415"]},
                  "baseline": {"name": "iCache Total", "value": dashes},
                  "diff": {"name": "iCache Total", "value": dashes}}]},
            {"headerName": ["", "requests", "throughput(GB/s)", "peak(%)"], "tableName": "L0C", "size": ["1", "3"],
             "row": [{"compare": {"name": "L0C Read Cube", "value": ["5120", "16.272491", "NA"]},
                      "baseline": {"name": "L0C Read Cube", "value": ["-", "-", "-"]},
                      "diff": {"name": "L0C Read Cube", "value": ["-", "-", "-"]}}]},
        ],
    }]}


@pytest.mark.parametrize("command", ["source/details/baseInfo", "source/details/computeworkload",
                                     "source/details/memoryGraph", "source/details/memoryTable"])
def test_without_the_flag_nothing_is_compared(profiles, command):
    # the shapes stay wrapped (SourceProtocolUtil.cpp always writes compare/baseline/diff), the baseline empty
    client, current, baseline = profiles
    alone = flat(profiles, command, "current")
    assert body(client, command, {"cardId": current, "baselineRankId": baseline}) == alone
    assert body(client, command, {"cardId": current, "isCompared": False, "baselineRankId": baseline}) == alone
    assert alone != compared(profiles, command)
    text = json.dumps(alone)
    assert '"compare"' in text
    assert not any(figure in text for figure in ('"12.25"', '"40000', '"85.5"', '"21000"', '"4.0"'))


@pytest.mark.parametrize("command", ["source/details/baseInfo", "source/details/computeworkload",
                                     "source/details/memoryGraph", "source/details/memoryTable"])
def test_bad_baseline_card(profiles, command):
    client, current, _ = profiles
    unknown = ask(client, command, {"cardId": current, "isCompared": True, "baselineRankId": "missing"})
    assert unknown["result"] is False and unknown["error"]["message"] == "unknown card 'missing'"
    assert len(unknown["body"]["cards"]) == 2
    missing = ask(client, command, {"cardId": current, "isCompared": True})
    assert (missing["result"], missing["body"], missing["error"]["message"]) == (
        False, {}, "missing parameter baselineRankId")
    odd = ask(client, command, {"cardId": current, "isCompared": "maybe", "baselineRankId": current})
    assert odd["result"] is False and odd["error"]["message"] == "parameter isCompared: 'maybe' is not a boolean"
