"""POST /api/v1/insight (seed 000) over HTTP: every command's body against its seed shape and the
values the factories wrote, the card rules, the envelope errors and import/action's import root."""

from __future__ import annotations

import json

import pytest

from factories.op_profile import (
    CODE, CODE_PATH, CORES, BaseInfoFactory, InstructionsApiFactory, OpProfileFactory, json_block,
)
from factories.trace_json import EventFactory, TraceFileFactory
from service import create_app
from service.insight import cache
from warehouse import db, ingest

API = "/api/v1/insight"

#: a trace: a parent (with the trace viewers' color name "good") and its child on (100, 1), a kernel on
#: (200, 7), an arrow from 2 us into the child to 1 us into the kernel
TRACE_EVENTS = [
    {"ph": "M", "name": "process_name", "pid": 100, "tid": 0, "args": {"name": "Python"}},
    EventFactory(name="parent", pid=100, tid=1, ts="1000.000", dur=50.0, cat="python_function", cname="good"),
    EventFactory(name="child", pid=100, tid=1, ts="1010.000", dur=10.0, cat="cpu_op"),
    EventFactory(name="kernel", pid=200, tid=7, ts="1100.000", dur=5.0, cat="kernel",
                 args={"Input Dims": "[[2, 3]]", "Input type": "float16", "Attr Info": {"axis": 1}}),
    {"ph": "s", "id": 42, "cat": "async_npu", "name": "torch_to_npu", "pid": 100, "tid": 1, "ts": "1012.000"},
    {"ph": "f", "id": 42, "cat": "async_npu", "name": "torch_to_npu", "pid": 200, "tid": 7, "ts": "1101.000",
     "bp": "e"},
]


def build(path, files) -> None:
    conn = db.connect(path)
    try:
        results = ingest.ingest_paths(conn, files)
    finally:
        conn.close()
    assert [r.status for r in results] == ["ok"] * len(files), [r.error for r in results]


@pytest.fixture
def warehouse(tmp_path):
    """One operator profile (every block type) and one trace with a flow, ingested for real."""
    profile = OpProfileFactory(path=tmp_path / "visualize_data.bin")
    trace = TraceFileFactory(path=tmp_path / "trace_view.json", events=TRACE_EVENTS)
    path = tmp_path / "warehouse.db"
    build(path, [profile.path, trace])
    conn = db.connect(path)
    ids = {name: row for name, *row in conn.execute(
        "SELECT s.name, s.id, s.thread_id, t.process_id FROM slice AS s JOIN thread AS t ON t.id = s.thread_id")}
    conn.close()
    return {"path": path, "ids": ids, "profile": profile}


@pytest.fixture
def client(warehouse):
    return create_app({"TESTING": True, "DATABASE": str(warehouse["path"])}).test_client()


def ask(client, command: str, params: dict | None = None, request_id=7, module="timeline") -> dict:
    response = client.post(API, json={"id": request_id, "moduleName": module, "type": "request",
                                      "command": command, "params": params or {}})
    assert response.status_code == 200
    answer = response.get_json()
    # a refusal carries the real server's top-level error (Ascend/msinsight server/src/protocol/ProtocolUtil.cpp)
    assert set(answer) == {"type", "id", "requestId", "result", "command", "moduleName", "body"} | (
        set() if answer["result"] else {"error"})
    assert (answer["type"], answer["requestId"], answer["command"], answer["moduleName"]) == (
        "response", request_id, command, module)
    return answer


def body(client, command: str, params: dict | None = None) -> dict:
    answer = ask(client, command, params)
    assert answer["result"] is True, answer["body"]
    return answer["body"]


def refusal(client, command: str, params: dict | None = None) -> str:
    answer = ask(client, command, params)
    assert answer["result"] is False and isinstance(answer["error"]["message"], str)
    assert isinstance(answer["error"]["code"], int)
    return answer["error"]["message"]


# ---- timeline --------------------------------------------------------------------------------


# Timeline times are relative to the input's earliest slice (the trace's parent at 1000 us: time
# zero is 1_000_000 ns), as the real server's are to its minimum timestamp (Ascend/msinsight
# server/src/modules/timeline/core/RenderEngine.cpp, QueryThreadTraces).


def test_thread_traces_rows_by_depth(client, warehouse):
    parent_id, thread, process = warehouse["ids"]["parent"]
    child_id = warehouse["ids"]["child"][0]
    answer = body(client, "unit/threadTraces", {
        "cardId": "", "processId": str(process), "threadId": str(thread), "metaType": "",
        "startTime": 0, "endTime": 1_000_000, "timePerPx": 1, "dataSource": {"remote": "127.0.0.1"}})
    # UnitThreadTracesResponse (TimelineProtocolUtil.cpp): the thread's depths, the answer's, Python functions;
    # cname is the input's own (RenderEngine.cpp QueryThreadTraces: the slice table's cname column), "" without
    assert (answer["maxDepth"], answer["currentMaxDepth"], answer["havePythonFunction"]) == (2, 2, True)
    assert answer["data"] == [
        [{"name": "parent", "duration": 50_000, "startTime": 0, "endTime": 50_000, "depth": 0,
          "threadId": str(thread), "cname": "good", "id": str(parent_id)}],
        [{"name": "child", "duration": 10_000, "startTime": 10_000, "endTime": 20_000, "depth": 1,
          "threadId": str(thread), "cname": "", "id": str(child_id)}],
    ]


def test_thread_traces_merge_below_a_pixel(client, warehouse):
    _, thread, process = warehouse["ids"]["parent"]
    # 20 us per pixel: the 10 us child is narrow but alone; the 50 us parent is wide
    data = body(client, "unit/threadTraces", {"processId": process, "threadId": thread, "startTime": 40_000,
                                              "endTime": 2_000_000, "timePerPx": 20_000.0})["data"]
    assert [[(r["name"], r["startTime"], r["endTime"]) for r in depth] for depth in data] == [
        [("parent", 0, 50_000)]]  # the child ends before the window


def test_thread_traces_of_the_operator_trace_block(client, warehouse):
    # the operator profile's own time zero: its trace block's first event (1 us)
    block0, thread, process = warehouse["ids"]["block0"]
    answer = body(client, "unit/threadTraces", {"processId": str(process), "threadId": str(thread),
                                                "startTime": 0, "endTime": 100_000, "timePerPx": 50})
    assert [[(r["name"], r["startTime"], r["duration"], r["depth"]) for r in depth] for depth in answer["data"]] == [
        [("block0", 0, 20_000, 0)], [("MOV_XD_IMM", 1_000, 5_000, 1)]]
    assert answer["havePythonFunction"] is False


def test_thread_traces_summary_is_the_busy_union(client, warehouse):
    _, _, python = warehouse["ids"]["parent"]
    assert body(client, "unit/threadTracesSummary", {
        "processId": str(python), "startTime": 0, "endTime": 1_000_000, "timePerPx": 1000})["data"] == [
        {"startTime": 0, "duration": 50_000}]
    # the same again (from the padded-viewport cache); without timePerPx (the real server needs none);
    # a window left of the slices
    assert body(client, "unit/threadTracesSummary", {
        "processId": str(python), "startTime": 0, "endTime": 1_000_000, "timePerPx": 1000})["data"] == [
        {"startTime": 0, "duration": 50_000}]
    assert body(client, "unit/threadTracesSummary", {
        "processId": str(python), "startTime": 0, "endTime": 1_000_000})["data"] == [
        {"startTime": 0, "duration": 50_000}]
    assert body(client, "unit/threadTracesSummary", {
        "processId": str(python), "startTime": -1_000_000, "endTime": -1_000, "timePerPx": 1})["data"] == []


def test_flows_of_a_slice(client, warehouse):
    child_id, child_thread, python = warehouse["ids"]["child"]
    kernel_id, kernel_thread, device = warehouse["ids"]["kernel"]
    flows = body(client, "unit/flows", {"rankId": "", "tid": str(child_thread), "pid": str(python),
                                        "id": str(child_id), "metaType": "", "startTime": 1_010_000,
                                        "endTime": 1_020_000, "isSimulation": False})["unitAllFlows"]
    assert len(flows) == 1 and flows[0]["cat"] == "async_npu"
    (flow,) = flows[0]["flows"]
    assert set(flow) == {"title", "cat", "id", "from", "to"}
    # the input's own flow id (the trace's "id": 42)
    assert (flow["title"], flow["cat"], flow["id"]) == ("torch_to_npu", "async_npu", "42")
    # each end at its flow event's own time (RenderEngine.cpp/FlowAnalyzer.cpp: the flow point's
    # timestamp minus the minimum), not at the start of the slice it binds to
    assert flow["from"] == {"pid": str(python), "tid": str(child_thread), "timestamp": 12_000,
                            "duration": 10_000, "depth": 1, "name": "child", "id": str(child_id),
                            "metaType": "", "rankId": ""}
    assert flow["to"] == {"pid": str(device), "tid": str(kernel_thread), "timestamp": 101_000,
                          "duration": 5_000, "depth": 0, "name": "kernel", "id": str(kernel_id),
                          "metaType": "", "rankId": ""}
    # the kernel sees the same arrow
    assert body(client, "unit/flows", {"id": kernel_id})["unitAllFlows"][0]["flows"][0]["id"] == flow["id"]
    assert body(client, "unit/flows", {"id": warehouse["ids"]["parent"][0]}) == {"unitAllFlows": []}


def test_thread_detail_by_id_and_by_place(client, warehouse):
    parent_id, thread, process = warehouse["ids"]["parent"]
    expected = {"emptyFlag": False, "data": {
        "selfTime": 40_000, "args": "", "title": "parent", "duration": 50_000, "cat": "python_function",
        "rawStartTime": "1000000", "rawEndTime": "1050000", "inputShapes": "", "inputDataTypes": "", "inputFormats": "", "outputShapes": "", "outputDataTypes": "",
        "outputFormats": "", "attrInfo": ""}}
    assert body(client, "unit/threadDetail", {"rankId": "", "pid": str(process), "tid": str(thread),
                                              "id": str(parent_id), "depth": 0, "timePerPx": 30.1}) == expected
    # a click at depth 0, 30 us in: the parent, found without its id
    assert body(client, "unit/threadDetail", {"tid": str(thread), "depth": 0, "startTime": 30_000}) == expected
    assert body(client, "unit/threadDetail", {"tid": str(thread), "depth": 1, "startTime": 30_000}) == {
        "emptyFlag": True, "data": {}}


def test_thread_detail_reads_shapes_and_types_from_args(client, warehouse):
    data = body(client, "unit/threadDetail", {"id": warehouse["ids"]["kernel"][0]})["data"]
    assert json.loads(data["args"]) == {"Input Dims": "[[2, 3]]", "Input type": "float16", "Attr Info": {"axis": 1}}
    assert (data["inputShapes"], data["inputDataTypes"], data["attrInfo"], data["selfTime"]) == (
        "[[2, 3]]", "float16", '{"axis": 1}', 5_000)


def test_threads_sums_the_selection_by_name(client, warehouse):
    # UnitThreadsResponse (TimelineProtocolUtil.cpp): per name, wall and self time, occurrences, the threads
    parent_id, thread, process = warehouse["ids"]["parent"]
    _, kernel_thread, device = warehouse["ids"]["kernel"]
    selection = {"rankId": "", "startTime": 0, "endTime": 1_000_000, "metadataList": [
        {"tid": str(thread), "pid": str(process), "metaType": "TEXT"},
        {"tid": str(kernel_thread), "pid": str(device), "metaType": "TEXT"}]}
    assert body(client, "unit/threads", selection) == {"emptyFlag": False, "data": [
        {"title": "parent", "wallDuration": 50_000, "occurrences": 1, "avgWallDuration": 50_000.0,
         "selfTime": 40_000, "tid": [str(thread)], "pid": str(process), "metaType": "TEXT",
         "processes": [{"pid": str(process), "tidList": [str(thread)]}], "metaTypeList": ["TEXT"]},
        {"title": "child", "wallDuration": 10_000, "occurrences": 1, "avgWallDuration": 10_000.0,
         "selfTime": 10_000, "tid": [str(thread)], "pid": str(process), "metaType": "TEXT",
         "processes": [{"pid": str(process), "tidList": [str(thread)]}], "metaTypeList": ["TEXT"]},
        {"title": "kernel", "wallDuration": 5_000, "occurrences": 1, "avgWallDuration": 5_000.0,
         "selfTime": 5_000, "tid": [str(kernel_thread)], "pid": str(device), "metaType": "TEXT",
         "processes": [{"pid": str(device), "tidList": [str(kernel_thread)]}], "metaTypeList": ["TEXT"]}]}
    # the older frontend's tid/pid; a range after the parent's end and before the kernel: nothing
    only = body(client, "unit/threads", {"tid": str(thread), "pid": str(process), "startTime": 15_000,
                                         "endTime": 16_000})
    assert [(d["title"], d["occurrences"]) for d in only["data"]] == [("parent", 1), ("child", 1)]
    assert body(client, "unit/threads", {"tid": str(thread), "startTime": 60_000, "endTime": 90_000}) == {
        "emptyFlag": True, "data": []}
    assert refusal(client, "unit/threads", {"metadataList": "x", "startTime": 0, "endTime": 1}).startswith(
        "parameter metadataList: expected a list")


@pytest.mark.parametrize(
    "command,params,message",
    (
        ("unit/threadTraces", {"processId": "1", "startTime": 0, "endTime": 1, "timePerPx": 1},
         "missing parameter threadId"),
        ("unit/threadTraces", {"processId": "1", "threadId": "1", "startTime": "soon", "endTime": 1, "timePerPx": 1},
         "parameter startTime: 'soon' is not an integer"),
        ("unit/threadTraces", {"processId": "1", "threadId": "1", "startTime": 0, "endTime": 1, "timePerPx": 0},
         "parameter timePerPx: 0 is not a number above 0"),
        ("unit/threadTraces", {"processId": "1", "threadId": "1", "startTime": 9, "endTime": 1, "timePerPx": 1},
         "endTime 1 is before startTime 9"),
        ("unit/threadTraces", {"processId": "1", "threadId": "999", "startTime": 0, "endTime": 1, "timePerPx": 1},
         "unknown thread 999"),
        ("unit/threadTraces", {"processId": [1], "threadId": "1", "startTime": 0, "endTime": 1, "timePerPx": 1},
         "parameter processId: [1] is not an integer"),
        ("unit/threadTracesSummary", {"processId": "999", "startTime": 0, "endTime": 1, "timePerPx": 1},
         "unknown process 999"),
        ("unit/threadTracesSummary", {"processId": 10**30, "startTime": 0, "endTime": 1, "timePerPx": 1},
         "parameter processId: 1000000000000000000000000000000 is out of the 64-bit range"),
        ("unit/threadDetail", {"id": "999999"}, "unknown slice 999999"),
        ("unit/flows", {"id": True}, "parameter id: True is not an integer"),
        ("no/such", {}, "unknown command 'no/such'"),
    ),
)
def test_bad_params_answer_result_false(client, command, params, message):
    assert refusal(client, command, params).startswith(message)


def test_extreme_windows_stay_in_64_bits(client, warehouse):
    _, thread, process = warehouse["ids"]["parent"]
    window = {"startTime": -(1 << 63), "endTime": (1 << 63) - 1, "timePerPx": 1e300}
    traces = body(client, "unit/threadTraces", {"processId": process, "threadId": thread, **window})["data"]
    assert [[(r["name"], r["startTime"], r["endTime"]) for r in d] for d in traces] == [
        [("parent", 0, 50_000)], [("child", 10_000, 20_000)]]
    assert body(client, "unit/threadTracesSummary", {"processId": process, **window})["data"] == [
        {"startTime": 0, "duration": 50_000}]


def test_threads_past_the_cache_budget_are_read_again(warehouse):
    client = create_app({"TESTING": True, "DATABASE": str(warehouse["path"]),
                         "INSIGHT_CACHE_SLICES": 1}).test_client()
    for name in ("parent", "kernel", "parent"):
        slice_id, thread, process = warehouse["ids"][name]
        data = body(client, "unit/threadTraces", {"processId": process, "threadId": thread, "startTime": 0,
                                                  "endTime": 2_000_000, "timePerPx": 1})["data"]
        assert data[0][0]["id"] == str(slice_id)
    held = cache.for_warehouse(str(warehouse["path"]), 1)
    assert list(held.threads) == [warehouse["ids"]["parent"][1]]  # the last one read; the kernel's evicted


def test_thread_must_be_in_the_process_and_the_card(client, warehouse):
    _, thread, process = warehouse["ids"]["parent"]
    _, op_thread, op_process = warehouse["ids"]["block0"]
    window = {"startTime": 0, "endTime": 1, "timePerPx": 1}
    assert refusal(client, "unit/threadTraces", {"processId": op_process, "threadId": thread, **window}) == (
        f"thread {thread} is not in process {op_process}")
    # the operator's trace is part of its card; the torch trace is not
    assert body(client, "unit/threadTraces", {"cardId": "add_custom", "processId": op_process,
                                              "threadId": op_thread, **window})["data"][0][0]["name"] == "block0"
    assert refusal(client, "unit/threadTraces", {"cardId": "add_custom", "processId": process, "threadId": thread,
                                                 **window}) == f"thread {thread} is not part of card 'add_custom'"
    assert refusal(client, "unit/threadTracesSummary", {"cardId": "nope", "processId": process, **window}) == (
        "unknown card 'nope'")


# ---- hot spots -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", (CODE_PATH, "matmul_leakyrelu_custom.cpp", "op/matmul_leakyrelu_custom.cpp"))
def test_code_file(client, name):
    assert body(client, "source/code/file", {"sourceName": name}) == {"fileContent": CODE}


@pytest.mark.parametrize("name", ("../../etc/passwd", "/etc/passwd", "ustom.cpp", "/home/op", "file:///etc/hosts"))
def test_code_file_reads_only_the_warehouse(client, name):
    assert refusal(client, "source/code/file", {"sourceName": name}) == f"no source file {name!r} in the profile"


def test_api_line(client):
    lines = body(client, "source/api/line", {"sourceName": CODE_PATH, "coreName": "core0.cubecore0"})["lines"]
    # Line, Instructions Executed, Cycles, Address Range, then the declared columns shown (Hidden Note has dtype 0)
    assert lines == [
        {"Line": 4, "Instructions Executed": 10, "Cycles": 100,
         "Address Range": [["0x1000", "0x1010"], ["0x1040", "0x1044"]], "L2Cache Hit Rate": 50.5},
        {"Line": 5, "Instructions Executed": 2, "Cycles": 20, "Address Range": [["0x1010", "0x1020"]],
         "L2Cache Hit Rate": 75.0},
    ]
    second_core = body(client, "source/api/line", {"sourceName": "matmul_leakyrelu_custom.cpp",
                                                   "coreName": CORES[1]})["lines"]
    assert [(x["Line"], x["Cycles"], x["Instructions Executed"], x["L2Cache Hit Rate"]) for x in second_core] == [
        (4, 7, 1, None), (5, 0, 0, 25.0)]
    assert refusal(client, "source/api/line", {"sourceName": CODE_PATH, "coreName": "core9"}).startswith(
        "unknown core 'core9'")
    assert refusal(client, "source/api/line", {"sourceName": "../x.cpp", "coreName": CORES[0]}) == (
        "no source file '../x.cpp' in the profile")
    # a source file without hot lines has none
    assert body(client, "source/api/line", {"sourceName": "b.py", "coreName": CORES[0]}) == {"lines": []}


def test_api_instructions_is_the_block_text(client):
    instructions = body(client, "source/api/instructions", {})["instructions"]
    assert isinstance(instructions, str) and json.loads(instructions) == InstructionsApiFactory()


# ---- operator details ------------------------------------------------------------------------


# The detail answers are the real server's: numbers as written in the block, always wrapped
# {compare, baseline, diff} (Ascend/msinsight server/src/modules/source/protocol/SourceProtocolUtil.cpp,
# parser/DetailsMemoryParser.cpp); without a baseline, baseline and diff are empty or placeholders.


def test_base_info(client):
    answer = body(client, "source/details/baseInfo")
    assert set(answer) == {"compare", "baseline"}
    assert answer["compare"] == {
        "name": "add_custom", "soc": "Ascend910B1", "opType": "aiv", "blockDim": "2", "mixBlockDim": "0",
        "duration": "13.5", "deviceId": "3", "pid": "4242",
        "blockDetail": {"headerName": ["Block ID", "Core Type", "Duration (μs)"], "size": ["3", "3"],
                        "row": [{"value": ["0", "aiv", "5.25"]}, {"value": ["1", "aiv", "NA"]}]},
        "advice": ["use more cores", "vectorise the tail"],
    }
    assert answer["baseline"] == {"name": "", "soc": "", "opType": "", "blockDim": "", "mixBlockDim": "",
                                  "duration": "", "deviceId": "", "pid": "",
                                  "blockDetail": {"headerName": [], "size": [], "row": []}, "advice": []}


def test_compute_workload(client):
    answer = body(client, "source/details/computeworkload")
    assert answer["blockIdList"] == ["0", "1"]
    # unit 3 decoded (unitTypeMapping), the seed's "%" kept; origin_value 46050.0 as written
    cube = {"blockId": "0", "blockType": "cube0", "name": "Cube All Active", "unit": "PRE", "value": "11.15",
            "originValue": "46050.0"}
    vector = {"blockId": "1", "blockType": "vector0", "name": "ALL_ACTIVE", "unit": "%", "value": "73.6",
              "originValue": ""}
    for view, advice in (("chartData", ["balance the vector cores"]), ("tableData", ["table advice"])):
        assert answer[view]["advice"] == advice
        assert [item["compare"] for item in answer[view]["detailDataList"]] == [cube, vector]
        for item in answer[view]["detailDataList"]:
            empty = {"blockId": "", "blockType": "", "name": "", "unit": "", "value": "-", "originValue": "-"}
            assert item["baseline"] == item["diff"] == empty


def test_memory_graph(client):
    empty_rate = {"cycle": "", "totalCycles": "", "ratio": ""}
    empty_unit = {"request": "", "requestSuffix": "", "display": False, "peakRatio": "", "bandwidth": "",
                  "bandwidthSuffix": "", "memoryPath": ""}

    def wrapped(figures, empty):
        return {"compare": figures, "baseline": empty, "diff": empty}

    expected = {"coreMemory": [{
        "advice": ["aicore compute usage lower than 20%"],
        "blockId": "0",
        "l2Cache": wrapped({"hitRatio": "90.550110", "hit": "66845", "totalRequest": "73821", "miss": "6976"},
                           {"hitRatio": "", "hit": "", "totalRequest": "", "miss": ""}),
        "blockType": "mix",
        "chipType": "910B",
        "memoryUnit": [
            wrapped({"request": "47847", "requestSuffix": "", "display": True, "peakRatio": "NA",
                     "bandwidth": "19.008541", "bandwidthSuffix": "", "memoryPath": "0"}, empty_unit),
            wrapped({"request": "12", "requestSuffix": "", "display": False, "peakRatio": "-1", "bandwidth": "4.5",
                     "bandwidthSuffix": "", "memoryPath": "GM_TO_UB"}, empty_unit)],
        "vector": wrapped({"cycle": "6592", "totalCycles": "219790", "ratio": "2.5"}, empty_rate),
        "vector1": wrapped(empty_rate, empty_rate),
        "cube": wrapped({"cycle": "46050", "totalCycles": "413123", "ratio": "11.25"}, empty_rate),
    }]}
    assert body(client, "source/details/memoryGraph", {"blockId": "0", "showAs": "request"}) == expected
    assert body(client, "source/details/memoryGraph") == expected
    assert refusal(client, "source/details/memoryGraph", {"blockId": "5"}) == "no block 5 in the memory heat map"


def test_memory_table(client):
    def row(name, values):
        return {"compare": {"name": name, "value": values}, "baseline": {"name": name, "value": ["-"] * len(values)},
                "diff": {"name": name, "value": ["-"] * len(values)}}

    assert body(client, "source/details/memoryTable", {"blockId": "0", "showAs": "request"}) == {"memoryTable": [{
        "advice": ["aicore MTE2 bandwidth utilization lower than 80% when active"],
        "blockId": "0",
        "tableOpType": "mix",
        "tableDetail": [
            {"headerName": ["", "hit", "miss", "total", "hit rate(%)"], "tableName": "Cache", "size": ["2", "4"],
             "row": [row("L2 Cache Write", ["21468", "4480", "25948", "82.734695"]),
                     row("iCache Total", ["40198", "238", "40436", "99.411415"])]},
            {"headerName": ["", "requests", "throughput(GB/s)", "peak(%)"], "tableName": "L0C", "size": ["1", "3"],
             "row": [row("L0C Read Cube", ["5120", "16.272491", "NA"])]},
        ],
    }]}
    assert refusal(client, "source/details/memoryTable", {"blockId": 3}) == "no block 3 in the memory tables"


# ---- cards -----------------------------------------------------------------------------------


@pytest.fixture
def two_profiles(warehouse, tmp_path):
    """A second operator profile (base info only) beside the first."""
    other = OpProfileFactory(path=tmp_path / "other.bin",
                             blocks=[json_block(0x05, BaseInfoFactory(name="other_op", block_detail=[]))])
    build(warehouse["path"], [other.path])
    return warehouse


def test_several_profiles_need_a_card(two_profiles, client, tmp_path):
    answer = ask(client, "source/details/baseInfo")
    assert answer["result"] is False
    assert answer["error"]["message"] == "2 operator profiles in the warehouse: name one with cardId"
    # a card's id is its file's path (stable across imports), its name is still accepted when unique
    assert [(c["cardName"], c["rankId"]) for c in answer["body"]["cards"]] == [
        ("add_custom", c["cardPath"]) for c in answer["body"]["cards"][:1]] + [
        ("other_op", str(tmp_path / "other.bin"))]
    assert all(c["cardPath"].endswith((".bin",)) for c in answer["body"]["cards"])
    assert body(client, "source/details/baseInfo", {"cardId": "other_op"})["compare"]["name"] == "other_op"
    assert body(client, "source/details/baseInfo", {"rankId": "add_custom"})["compare"]["name"] == "add_custom"
    path = str(tmp_path / "other.bin")
    assert body(client, "source/details/baseInfo", {"rankId": path})["compare"]["name"] == "other_op"
    assert refusal(client, "source/code/file", {"cardId": "other_op", "sourceName": CODE_PATH}) == (
        f"no source file {CODE_PATH!r} in the profile")
    unknown = ask(client, "source/details/baseInfo", {"cardId": "missing"})
    assert unknown["result"] is False and unknown["error"]["message"] == "unknown card 'missing'"
    assert len(unknown["body"]["cards"]) == 2


def test_no_operator_profile(tmp_path):
    trace = TraceFileFactory(path=tmp_path / "t.json", events=TRACE_EVENTS)
    build(tmp_path / "w.db", [trace])
    client = create_app({"TESTING": True, "DATABASE": str(tmp_path / "w.db")}).test_client()
    assert refusal(client, "source/details/memoryTable").startswith("no operator profile in the warehouse")


# ---- the envelope ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "payload,message",
    (
        (b"not json", "the request must be a JSON object"),
        (b"[1, 2]", "the request must be a JSON object"),
        (b'{"id": 1, "moduleName": "m", "type": "request"}', "the request envelope has no command"),
        (b'{"id": 1, "moduleName": "m", "type": "response", "command": "x"}', "type must be 'request'"),
        (b'{"id": [1], "moduleName": "m", "type": "request", "command": "x"}', "id must be a number or a string"),
        (b'{"id": 1, "moduleName": "m", "type": "request", "command": 3}', "command and moduleName must be strings"),
        (b'{"id": 1, "moduleName": "m", "type": "request", "command": "x", "params": []}',
         "params must be a JSON object"),
    ),
)
def test_malformed_envelopes_are_json_400s(client, payload, message):
    response = client.post(API, data=payload, content_type="application/json")
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert error["code"] == "bad_request" and error["message"].startswith(message)


def test_response_ids_are_the_servers_and_request_ids_echo(client):
    first = ask(client, "source/details/baseInfo", request_id="abc", module="source")
    second = ask(client, "source/details/baseInfo", request_id=281, module="source")
    assert isinstance(first["id"], int) and second["id"] > first["id"]


def test_get_is_refused(client):
    assert client.get(API).status_code == 405


def test_openapi_documents_the_route(client):
    document = client.get("/api/v1/openapi.json").get_json()
    schema = document["paths"]["/insight"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert "unit/threadTraces" in schema["properties"]["command"]["enum"]


# ---- import/action ---------------------------------------------------------------------------


@pytest.fixture
def root(tmp_path):
    folder = tmp_path / "root"
    folder.mkdir()
    return folder


@pytest.fixture
def empty(tmp_path):
    path = tmp_path / "served.db"
    db.connect(path).close()
    return path


def importer(empty, root=None):
    return create_app({"TESTING": True, "DATABASE": str(empty),
                       "IMPORT_ROOT": str(root) if root else None}).test_client()


def sources(path) -> int:
    conn = db.connect(path)
    try:
        return conn.execute("SELECT count(*) FROM source").fetchone()[0]
    finally:
        conn.close()


def test_import_action_ingests_and_lists_cards(empty, root):
    (root / "run").mkdir()
    profile = OpProfileFactory(path=root / "run" / "visualize_data.bin")
    client = importer(empty, root)
    answer = body(client, "import/action", {"path": [str(profile.path)]})
    card = str(profile.path.resolve())
    # ImportActionResponse of Ascend/msinsight server/src/modules/timeline/protocol/TimelineProtocolUtil.cpp
    assert answer == {
        "isOnlyTraceJson": False, "isCluster": False, "reset": True, "isSimulation": True, "isBinary": True,
        "isIpynb": False, "isPending": False, "hasCachelineRecords": True, "instrVersion": 0,
        "isLeaks": False, "isIE": False, "isMultiDevice": False, "isTriton": False,
        "coreList": CORES, "sourceList": [CODE_PATH, "/home/op/b.py"], "subdirectoryList": [],
        # projectType 1: BIN (GlobalDefs.h ProjectTypeEnum)
        "result": [{"cardName": "add_custom", "rankId": card, "cardPath": card, "result": True, "dbPath": card,
                    "cluster": "", "projectType": 1, "dataPathList": [card], "host": ""}],
        "children": [{"clusterPath": "", "rankId": card, "host": "", "filePath": card, "type": "COMPUTE",
                      "deviceId": "", "fileDir": "run", "children": []}],
    }
    assert body(client, "source/details/baseInfo")["compare"]["name"] == "add_custom"
    # a folder below the root, given relative to it; the file is already in: unchanged, still a card
    again = body(client, "import/action", {"path": ["run"]})
    assert again["result"] == answer["result"] and sources(empty) == 1


def test_import_without_a_root_reads_nothing(empty, tmp_path):
    profile = OpProfileFactory(path=tmp_path / "x.bin")
    assert refusal(importer(empty), "import/action", {"path": [str(profile.path)]}) == (
        "import is disabled: the server was started without --import-root")
    assert sources(empty) == 0


def test_import_refuses_paths_outside_the_root(empty, root, tmp_path):
    outside = OpProfileFactory(path=tmp_path / "outside.bin")
    inside = OpProfileFactory(path=root / "inside.bin")
    (root / "link.bin").symlink_to(outside.path)
    (root / "folder").mkdir()
    (root / "folder" / "link.bin").symlink_to(outside.path)
    client = importer(empty, root)
    # one refusal whatever the reason, naming the path relative to the root, never the root itself
    for given, shown in ((str(outside.path), str(outside.path)), ("../outside.bin", "../outside.bin"),
                         (str(root / ".." / "outside.bin"), "../outside.bin"), ("link.bin", "link.bin"),
                         ("folder", "folder"), ("missing.bin", "missing.bin")):
        assert refusal(client, "import/action", {"path": [str(inside.path), given]}) == (
            f"{shown}: not a readable file or folder below the import root")
    assert refusal(client, "import/action", {"path": []}).startswith("parameter path: expected a list of paths")
    assert sources(empty) == 0  # one bad path refuses the whole request: nothing was read


def test_import_reports_a_failed_file(empty, root):
    bad = root / "broken.bin"
    good = OpProfileFactory(path=root / "good.bin")
    bad.write_bytes(good.data[:40])  # a truncated profile: detected, fails to ingest
    result = body(importer(empty, root), "import/action", {"path": [str(bad)]})["result"]
    assert [(r["cardName"], r["result"]) for r in result] == [("broken.bin", False)]


def test_import_of_an_on_board_profile_is_no_simulation(empty, root, realdata):
    real = root / "visualize_data.bin"
    real.write_bytes((realdata / "msinsight/server_test_data/test_bin_mix/visualize_data.bin").read_bytes())
    answer = body(importer(empty, root), "import/action", {"path": ["visualize_data.bin"]})
    assert (answer["isSimulation"], answer["isBinary"], answer["coreList"], answer["sourceList"]) == (
        False, True, [], [])
    assert answer["result"] == [{"cardName": "MatmulLeakyreluCustom_0a4ecf73240c8db04ac5059db7c787a7_2_mix_aic",
                                 "rankId": str(real.resolve()), "cardPath": str(real.resolve()), "result": True,
                                 "dbPath": str(real.resolve()), "cluster": "", "projectType": 1,
                                 "dataPathList": [str(real.resolve())], "host": ""}]
    assert (answer["hasCachelineRecords"], answer["instrVersion"]) == (False, -1)


# ---- the real operator profile ---------------------------------------------------------------


def test_real_profile(realdata, tmp_path):
    path = tmp_path / "real.db"
    build(path, [realdata / "msinsight/server_test_data/test_bin_mix/visualize_data.bin"])
    client = create_app({"TESTING": True, "DATABASE": str(path)}).test_client()
    info = body(client, "source/details/baseInfo")["compare"]
    assert (info["name"], info["soc"], info["opType"], info["blockDim"], info["mixBlockDim"], info["duration"],
            info["deviceId"], info["pid"]) == (
        "MatmulLeakyreluCustom_0a4ecf73240c8db04ac5059db7c787a7_2_mix_aic", "Ascend910B4", "mix", "2", "4",
        "300.0660095214844", "0", "1112422")
    assert info["blockDetail"] == {
        "headerName": ["Block ID", "Cube0 Duration (μs)", "Vector0 Duration (μs)", "Vector1 Duration (μs)"],
        "size": ["3", "4"],
        "row": [{"value": ["0", "250.377579", "133.206055", "247.620605"]},
                {"value": ["1", "250.884842", "133.335754", "248.197571"]}]}
    load = body(client, "source/details/computeworkload")
    assert load["blockIdList"] == ["0", "1"]
    assert load["chartData"]["detailDataList"][0]["compare"] == {
        "blockId": "0", "blockType": "cube0", "name": "Cube All Active", "unit": "PRE", "value": "11.15",
        "originValue": "46050.0"}
    graph = body(client, "source/details/memoryGraph", {"blockId": "1"})["coreMemory"]
    assert [(c["blockId"], c["l2Cache"]["compare"]["hit"], c["l2Cache"]["compare"]["miss"]) for c in graph] == [
        ("1", "71104", "2692")]
    tables = body(client, "source/details/memoryTable", {"blockId": "0"})["memoryTable"]
    assert tables[0]["tableDetail"][0]["row"][0]["compare"] == {"name": "L2 Cache Write",
                                                                "value": ["21468", "4480", "25948", "82.734695"]}
