"""The frontend's operator views over POST /api/v1/insight, against the real server's rules
(Ascend/msinsight server/src/modules/source/): the dynamic hot-spot tables of
parser/SourceInstructionParser.cpp and handler/QueryApiInstructionsDynamicHandler.cpp, the inter-core
load levels of parser/InterCoreLoadGraphParser.cpp and protocol/SourceProtocolResponse.h, the roofline
of parser/RooflineParserImpl.cpp, the cacheline body of protocol/SourceProtocolUtil.cpp."""

from __future__ import annotations

import pytest

from factories.op_profile import (
    CODE_PATH, CORES, CoreLoadFactory, FilesApiFactory, InstructionsApiFactory, OpProfileFactory, json_block,
    every_block,
)
from service import create_app
from warehouse import db, ingest

API = "/api/v1/insight"


def served(tmp_path, blocks):
    profile = OpProfileFactory(path=tmp_path / "visualize_data.bin", blocks=blocks)
    conn = db.connect(tmp_path / "w.db")
    try:
        assert [r.status for r in ingest.ingest_paths(conn, [profile.path])] == ["ok"]
    finally:
        conn.close()
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "w.db")}).test_client()


def body(client, command: str, params: dict | None = None) -> dict:
    answer = client.post(API, json={"id": 3, "moduleName": "source", "type": "request", "command": command,
                                    "params": params or {}}).get_json()
    assert answer["result"] is True, answer
    return answer["body"]


@pytest.fixture
def client(tmp_path):
    return served(tmp_path, every_block())


def test_line_dynamic_types_each_declared_column(client):
    # core 1 of each per-core array; "5" under an INT column and "NA" under a PERCENTAGE one are 0
    # (rapidjson IsInt/IsFloat), the SKIP (0) column is left out, Address Range read as pairs
    answer = body(client, "source/api/line/dynamic", {"sourceName": CODE_PATH, "coreName": CORES[1]})
    assert answer == {"Lines": [
        {"Cycles": 7, "Instructions Executed": 1, "Line": 4, "L2Cache Hit Rate": 0.0,
         "Address Range": [["0x1000", "0x1010"], ["0x1040", "0x1044"]]},
        {"Cycles": 0, "Instructions Executed": 0, "Line": 0, "L2Cache Hit Rate": 0.0,
         "Address Range": [["0x1010", "0x1020"]]}],
        "Files Dtype": {"Lines": {"Address Range": 0, "Cycles": 1, "Instructions Executed": 1, "Line": 1,
                                  "L2Cache Hit Rate": 4, "Hidden Note": 0}}}
    # an unknown core is the first one; an unknown file has no lines
    first = body(client, "source/api/line/dynamic", {"sourceName": CODE_PATH, "coreName": "nope"})["Lines"]
    assert [(line["Cycles"], line["Instructions Executed"]) for line in first] == [(100, 10), (0, 2)]
    assert body(client, "source/api/line/dynamic", {"sourceName": "/etc/passwd", "coreName": ""})["Lines"] == []


def test_instructions_dynamic(client):
    answer = body(client, "source/api/instructions/dynamic", {"coreName": CORES[0]})
    assert answer["Core"] == CORES[0]
    assert answer["Instructions Dtype"] == InstructionsApiFactory()["Instructions Dtype"]
    assert answer["Instructions"] == [
        {"Address": "0x1000", "AscendC Inner Code": f"{CODE_PATH}:4", "Operands": '{"x":[1,2]}', "Pipe": "SCALAR",
         "Source": "MOV_XD_IMM XD:X29,IMM", "Cycles": 3, "Instructions Executed": 1, "RealStallCycles": 2,
         "TheoreticalStallCycles": 0, "L2Cache Hit Rate": 99.5},
        {"Address": "0x1010", "AscendC Inner Code": "/tikcpp/kernel_event.h:719\n/tikcpp/kernel_common.h:159",
         "Operands": '"{}"', "Pipe": "MTE2", "Source": "WAIT_FLAG PIPE:MTE2", "Cycles": 599,
         "Instructions Executed": 1, "RealStallCycles": 598, "TheoreticalStallCycles": 0, "L2Cache Hit Rate": 0.25}]


def test_old_api_blocks_answer_the_fixed_columns(tmp_path):
    files = FilesApiFactory()
    del files["Files Dtype"]
    instructions = InstructionsApiFactory()
    del instructions["Instructions Dtype"]
    client = served(tmp_path, [json_block(0x03, files), json_block(0x04, instructions, version=0)])
    # a line that ran nowhere on the core is left out; Line "5" is not an integer: the line is skipped
    assert body(client, "source/api/line/dynamic", {"sourceName": CODE_PATH, "coreName": CORES[0]}) == {"Lines": [
        {"Line": 4, "Instructions Executed": 10, "Cycles": 100.0,
         "Address Range": [["0x1000", "0x1010"], ["0x1040", "0x1044"]]}]}
    assert body(client, "source/api/line/dynamic", {"sourceName": CODE_PATH, "coreName": "nope"}) == {"Lines": []}
    old = body(client, "source/api/instructions/dynamic", {"coreName": CORES[1]})["Instructions"]
    assert old[0] == {"Source": "MOV_XD_IMM XD:X29,IMM", "Address": "0x1000", "Ascend Inner Code": f"{CODE_PATH}:4",
                      "Cycles": 4, "Instructions Executed": 1, "Pipe": "SCALAR", "RealStallCycles": 2,
                      "TheoreticalStallCycles": 1}


def test_roofline_keeps_the_written_numbers(client):
    assert body(client, "source/details/roofline") == {"soc": "Ascend910B1", "advice": "", "data": [
        {"title": "Memory Unit", "rooflines": [
            {"bw": "1600.5", "bwName": "GM", "computility": "320.0", "computilityName": "Cube FP16",
             "point": ["12.5", "100.25"], "ratio": ""},
            {"bw": "800", "bwName": "", "computility": "160", "computilityName": "Vector FP32", "point": ["3", "40"],
             "ratio": ""}]}]}


def _sub(cycles: int, subcore_id: int = 0) -> dict:
    return {"L2cache_hit_rate": "50.0", "cycles": str(cycles), "subcore_id": str(subcore_id),
            "subcore_type": "vector", "throughput": "1000"}


def test_inter_core_load_levels_against_the_sub_core_type(tmp_path):
    # cycles 100, 200, 300 on three vector cores: mean 200, sample deviation 100, z = -1, 0, 1:
    # int(10 * sigmoid(z)) = 2, 5, 7; equal throughputs and hit rates: deviation 0, level 0.
    # A vector operator's cores are paired: (0, 1) -> core 0 as vector0/vector1, 2 -> core 1
    load = CoreLoadFactory(op_type="vector", op_detail=[
        {"core_id": 2, "core_detail": [_sub(300)]}, {"core_id": 0, "core_detail": [_sub(100)]},
        {"core_id": 1, "core_detail": [_sub(200)]}])
    answer = body(served(tmp_path, [json_block(0x0C, load)]), "source/details/interCoreLoadAnalysis")
    assert (answer["soc"], answer["opType"], answer["advice"]) == ("Ascend910B4", "vector", load["advice"])
    assert [(core["coreId"], [(s["subCoreName"], s["cycles"]["value"]["compare"], s["cycles"]["level"],
                                s["throughput"]["level"]) for s in core["subCoreDetails"]])
            for core in answer["opDetails"]] == [(0, [("vector0", 100, 2, 0), ("vector1", 200, 5, 0)]),
                                                 (1, [("vector0", 300, 7, 0)])]
    first = answer["opDetails"][0]["subCoreDetails"][0]
    assert first["cacheHitRate"] == {"value": {"compare": 50.0, "baseline": 0.0, "diff": 0.0}, "level": 0}
    assert first["simtVfInstructionPerCycle"] == {"value": {"compare": 0.0, "baseline": 0.0, "diff": 0.0},
                                                  "level": 0}


def test_mix_inter_core_load_keeps_cores_and_float32_rates(client):
    core = body(client, "source/details/interCoreLoadAnalysis")["opDetails"]
    assert [(c["coreId"], [s["subCoreName"] for s in c["subCoreDetails"]]) for c in core] == [
        (0, ["vector0", "cube0"])]
    # "80.157990" held as the server's 32-bit float
    assert core[0]["subCoreDetails"][0]["cacheHitRate"]["value"]["compare"] == 80.15798950195312


def test_stall_reasons_and_cacheline_records(client):
    assert body(client, "source/queryTopWarpStallReason") == {"unit": "count", "data": [
        {"compare": {"name": "WAIT_FLAG", "value": 598}, "baseline": {"name": "WAIT_FLAG", "value": 0},
         "diff": {"name": "WAIT_FLAG", "value": 0}},
        {"compare": {"name": "BAR", "value": 12}, "baseline": {"name": "BAR", "value": 0},
         "diff": {"name": "BAR", "value": 0}}]}
    assert body(client, "source/cache/cachelineRecords") == {"Cacheline Records": [
        {"Cacheline Id": 7, "Hit": {"Address Range": ["0x100", "0x180"], "Value": [12, 0.75]},
         "Miss": {"Address Range": ["0x180", "0x200"], "Value": ["4", "0.25"]}}]}


def test_stall_reasons_in_compare_mode(tmp_path):
    current = OpProfileFactory(path=tmp_path / "a.bin", blocks=[
        json_block(0x0F, {"top_stall_reason_table": {"WAIT_FLAG": 598, "BAR": 12}})])
    baseline = OpProfileFactory(path=tmp_path / "b.bin", blocks=[
        json_block(0x0F, {"top_stall_reason_table": {"WAIT_FLAG": 600}})])
    conn = db.connect(tmp_path / "w.db")
    try:
        assert [r.status for r in ingest.ingest_paths(conn, [current.path, baseline.path])] == ["ok", "ok"]
    finally:
        conn.close()
    client = create_app({"TESTING": True, "DATABASE": str(tmp_path / "w.db")}).test_client()
    answer = body(client, "source/queryTopWarpStallReason", {
        "rankId": str(current.path), "isCompared": True, "baselineRankId": str(baseline.path)})
    assert [(d["compare"]["value"], d["baseline"]["value"], d["diff"]["value"]) for d in answer["data"]] == [
        (598, 600, -2), (12, 0, 12)]


def test_views_of_a_profile_without_their_blocks(tmp_path):
    client = served(tmp_path, [json_block(0x0F, {"top_stall_reason_table": {}})])
    assert body(client, "source/details/roofline") == {"soc": "", "advice": "", "data": []}
    assert body(client, "source/details/interCoreLoadAnalysis") == {"soc": "", "opType": "", "advice": "",
                                                                     "opDetails": []}
    assert body(client, "source/cache/cachelineRecords") == {}
    assert body(client, "source/queryTopWarpStallReason") == {"unit": "count", "data": []}
    assert body(client, "source/api/instructions/dynamic", {"coreName": ""}) == {"Instructions": []}
