"""A torch_npu trace_view.json's host calls land in cann_api and pytorch_api, as a rank db's CANN_API
and PYTORCH_API do, while staying slices on the timeline: the host rules answer on a text export."""

from __future__ import annotations

import pytest

from factories.trace_json import EventFactory, TraceFileFactory
from warehouse import ingest
from warehouse.analysis import findings

T0 = 1_736_408_883_688_000  # µs
PYTHON, CANN = 3096504, 3170820320  # torch_npu gives the CANN process a made-up pid


def us(offset_us: int) -> str:
    return f"{T0 + offset_us}.000"


def meta(pid: int, name: str) -> dict:
    return EventFactory(ph="M", name="process_name", pid=pid, tid=0, ts=None, dur=None, cat=None, args={"name": name})


def cann(api: str, level: str, offset_us: int, dur: float, connection_id: int) -> dict:
    """A CANN event as torch_npu writes it: '<Level>@<api>' on the CANN process, the caller's tid."""
    prefix = {"acl": "AscendCL", "node": "Node", "hccl": "Hccl"}[level]
    return EventFactory(name=f"{prefix}@{api}", pid=CANN, tid=PYTHON, ts=us(offset_us), dur=dur, cat=None, args={
        "Thread Id": PYTHON, "Mode": "ACL_RTS", "level": level, "id": api, "item_id": "0",
        "connection_id": connection_id})


def host_trace() -> list[dict]:
    """Step 1 on the Python thread with an operator, a queue pair, a Python function and three syncs."""
    return [
        meta(PYTHON, "Python"), meta(CANN, "CANN"),
        EventFactory(name="ProfilerStep#1", pid=PYTHON, tid=PYTHON, ts=us(0), dur=1000.0, cat="cpu_op",
                     args={"Sequence number": -1, "Fwd thread id": 0}),
        EventFactory(name="aten::add", pid=PYTHON, tid=PYTHON, ts=us(10), dur=20.0, cat="cpu_op",
                     args={"Sequence number": 7, "Fwd thread id": 0, "Input Dims": "2,3;\r\n2,3",
                           "Input type": "float;\r\nfloat"}),
        EventFactory(name="Enqueue", pid=PYTHON, tid=PYTHON, ts=us(12), dur=2.0, cat="enqueue",
                     args={"correlation_id": 41}),
        EventFactory(name="Dequeue@aclnnAdd", pid=PYTHON, tid=PYTHON + 1, ts=us(15), dur=3.0, cat="dequeue",
                     args={"correlation_id": 41}),
        EventFactory(name="main.py(10): train", pid=PYTHON, tid=PYTHON, ts=us(5), dur=900.0,
                     cat="python_function", args={"Python id": 2, "Python parent id": 1}),
        EventFactory(name="user mark", pid=PYTHON, tid=PYTHON, ts=us(40), dur=1.0, cat="user_annotation"),
        cann("launch", "node", 16, 1.0, 900),
        *(cann("aclrtSynchronizeStream", "acl", 100 + 200 * i, 50.0, 901 + i) for i in range(3)),
    ]


@pytest.fixture
def loaded(warehouse_db, tmp_path):
    path = tmp_path / "rank0_ascend_pt" / "ASCEND_PROFILER_OUTPUT" / "trace_view.json"
    path.parent.mkdir(parents=True)
    result = ingest.ingest_file(warehouse_db, TraceFileFactory(path=path, events=host_trace()))
    assert result.status == "ok"
    return warehouse_db


def test_cann_events_become_cann_api_rows_named_as_the_rank_db_names_them(loaded):
    rows = loaded.execute(
        "SELECT c.rank_id, c.type, c.name, c.ts, c.dur, c.connection_id, c.global_tid, n.value FROM cann_api AS c "
        "JOIN _slice AS s ON s.id = c.slice_id JOIN string AS n ON n.id = s.name_id ORDER BY c.ts").fetchall()
    global_tid = PYTHON << 32 | PYTHON  # the Python process's pid, not the CANN process's
    assert rows == [
        (0, "node", "launch", (T0 + 16) * 1000, 1000, 900, global_tid, "Node@launch"),
        *((0, "acl", "aclrtSynchronizeStream", (T0 + 100 + 200 * i) * 1000, 50_000, 901 + i, global_tid,
           "AscendCL@aclrtSynchronizeStream") for i in range(3)),
    ]


def test_python_events_become_pytorch_api_rows_typed_as_the_rank_db_types_them(loaded):
    rows = loaded.execute(
        "SELECT type, name, dur, connection_id, sequence_number, fwd_thread_id, input_dtypes, input_shapes, "
        "global_tid & 4294967295 FROM pytorch_api ORDER BY ts").fetchall()
    assert rows == [  # the user annotation is no framework call
        ("op", "ProfilerStep#1", 1_000_000, None, -1, 0, None, None, PYTHON),
        ("trace", "main.py(10): train", 900_000, None, None, None, None, None, PYTHON),
        ("op", "aten::add", 20_000, None, 7, 0, "float;\r\nfloat", "2,3;\r\n2,3", PYTHON),
        ("queue", "Enqueue", 2_000, 41, None, None, None, None, PYTHON),
        ("queue", "Dequeue@aclnnAdd", 3_000, 41, None, None, None, None, PYTHON + 1),
    ]


def test_the_calls_stay_slices_once_each(loaded):
    # every slice of the two processes but the annotation is one API row, and none is two
    slices = loaded.execute("SELECT count(*) FROM _slice").fetchone()[0]
    api = loaded.execute("SELECT count(*), count(DISTINCT slice_id) FROM (SELECT slice_id FROM cann_api "
                         "UNION ALL SELECT slice_id FROM pytorch_api)").fetchone()
    assert (slices, api) == (10, (9, 9))


def test_the_host_synchronisation_rule_finds_the_syncs_of_a_text_export(loaded):
    findings.analyze(loaded)
    assert loaded.execute("SELECT rank_id, step_id, numbers FROM finding "
                          "WHERE finding_type = 'host_device_synchronization'").fetchall() == [
        (0, 1, '{"calls":3,"blocked_ns":150000}')]


def test_a_trace_without_torch_npu_host_processes_adds_no_api_rows(warehouse_db, tmp_path):
    path = TraceFileFactory(path=tmp_path / "trace.json", events=[EventFactory(name="aten::mm")])
    assert ingest.ingest_file(warehouse_db, path).status == "ok"
    assert warehouse_db.execute("SELECT (SELECT count(*) FROM cann_api) + (SELECT count(*) FROM pytorch_api)"
                                ).fetchone() == (0,)
