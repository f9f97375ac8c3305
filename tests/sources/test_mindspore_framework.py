"""MindSpore's framework description, each file a source of its own: Framework.host[.vm].task_desc_info,
graph_desc_info and point, and framework_raw_{device}.csv (MindSpore's intermediate of the first two),
reconciled with them by the audit mindspore_framework_agrees."""

from __future__ import annotations

import json

import pytest

from tests.factories.mindspore import (RESNET_OPERATORS, RESNET_TASKS, FrameworkRawFactory, GraphDescFactory,
                                       PointFactory, TaskDescFactory, csv_module_bytes, graph_line)
from tests.sources.audit_examples import audit_examples
from tests.sources.mindspore_hostile import assert_fails_naming
from warehouse.ingest import ingest_file, ingest_paths

TASKS = "SELECT source_row, rank_id, task_id, stream_id, block_dim, op_name FROM mindspore_framework_task WHERE source_id = ?"
OPS = ("SELECT source_row, rank_id, op_name, op_type, input_shapes, input_dtypes, input_formats, output_shapes, "
       "output_dtypes, output_formats FROM mindspore_framework_op WHERE source_id = ?")
MATMUL = "Default/network-TrainStepWrap/_backbone-NetWithLossClass/MatMul-op38"
CAST = "Default/network-TrainStepWrap/_backbone-NetWithLossClass/Cast-op41"


def agreement(conn) -> list[tuple]:
    return audit_examples(conn, "mindspore_framework_agrees")


def test_the_task_file_gives_each_task_s_operator(warehouse_db, tmp_path):
    written = TaskDescFactory(path=tmp_path / "Framework.host.vm.task_desc_info.3.slice_0")
    result = ingest_file(warehouse_db, written.path)
    assert (result.status, result.kind, result.rows) == ("ok", "mindspore_framework_task_desc", 2)
    assert warehouse_db.execute(TASKS, (result.source_id,)).fetchall() == [
        (1, 3, 30109, 19, 32, MATMUL), (2, 3, 30453, 21, 22, CAST)]
    assert warehouse_db.execute("SELECT rank_id, device_id FROM source").fetchone() == (3, 3)


def test_the_graph_file_gives_each_operator_s_type_and_tensors(warehouse_db, tmp_path):
    written = GraphDescFactory(path=tmp_path / "Framework.host.vm.graph_desc_info.0.slice_0")
    result = ingest_file(warehouse_db, written.path)
    assert (result.status, result.kind, result.rows) == ("ok", "mindspore_framework_graph_desc", 2)
    # the vm data type numbers by MindSpore's names: 40 FLOAT32, 39 FLOAT16
    assert warehouse_db.execute(OPS, (result.source_id,)).fetchall() == [
        (1, 0, MATMUL, "MatMul", "16000,39;39,1", "FLOAT32;FLOAT32", "DefaultFormat;DefaultFormat", "16000,1",
         "FLOAT32", "DefaultFormat"),
        (2, 0, CAST, "Cast", "16000,1", "FLOAT32", "DefaultFormat", "16000,1", "FLOAT16", "DefaultFormat")]


def test_the_point_file_gives_each_tag_s_operator(warehouse_db, tmp_path):
    written = PointFactory(path=tmp_path / "Framework.host.point.1.slice_0")
    result = ingest_file(warehouse_db, written.path)
    assert (result.status, result.kind, result.rows) == ("ok", "mindspore_framework_point", 4)
    assert warehouse_db.execute(
        "SELECT tag, rank_id, op_name FROM mindspore_framework_point ORDER BY source_row").fetchall() == [
        (tag, 1, name) for tag, name in written.rows]
    assert written.rows[3][1].endswith("/AllGather-op136")


def test_the_job_s_id_in_a_container_s_data_folder(warehouse_db, tmp_path):
    """MindInsight's container/0/data/Framework.host.vm.{task,graph}_desc_info.0.JOB2.slice_0 (the same bytes as
    its JOB1 files, 257 and 946 bytes): the job's id after the device, where MindSpore's framework parser looks
    for a job's files in a container (_regex_framework_in_data); its profiling test expects the forward pass to
    start at Default/Cast-op6 and the backward to end at Default/TransData-op7 (tests/st/func/profiler/
    test_analyse.py), the first two tasks here."""
    folder = tmp_path / "container" / "0" / "data"
    folder.mkdir(parents=True)
    task = TaskDescFactory(path=folder / "Framework.host.vm.task_desc_info.0.JOB2.slice_0", rows=list(RESNET_TASKS))
    graph = GraphDescFactory(path=folder / "Framework.host.vm.graph_desc_info.0.JOB2.slice_0",
                             rows=[graph_line(*operator) for operator in RESNET_OPERATORS])
    assert (len(task.data), len(graph.data)) == (257, 946)
    results = ingest_paths(warehouse_db, [task.path, graph.path])
    assert [(r.status, r.kind, r.rows) for r in results] == [
        ("ok", "mindspore_framework_task_desc", 4), ("ok", "mindspore_framework_graph_desc", 4)]
    assert warehouse_db.execute("SELECT DISTINCT rank_id, device_id FROM source").fetchall() == [(0, 0)]
    assert warehouse_db.execute(TASKS, (results[0].source_id,)).fetchall()[:2] == [
        (1, 0, 51517, 0, 32, "Default/Cast-op6"), (2, 0, 51518, 0, 32, "Default/TransData-op7")]
    assert warehouse_db.execute(OPS, (results[1].source_id,)).fetchall()[1] == (
        2, 0, "Default/TransData-op7", "TransData", "32,3,224,224", "FLOAT16", "DefaultFormat", "32,1,224,224,16",
        "FLOAT16", "NC1HWC0")
    assert warehouse_db.execute("SELECT sum(block_dim) FROM mindspore_framework_task").fetchone() == (100,)

def test_the_csv_gives_the_tasks_and_operators_with_mindspore_s_names(warehouse_db, tmp_path):
    written = FrameworkRawFactory(path=tmp_path / "framework_raw_2.csv")
    assert written.data.count(b"\r\n") == 3  # Python's csv writer, as MindSpore's: CRLF ends
    result = ingest_file(warehouse_db, written.path)
    assert (result.status, result.kind, result.rows) == ("ok", "mindspore_framework_raw_csv", 4)
    assert warehouse_db.execute(TASKS, (result.source_id,)).fetchall() == [
        (1, 2, 30109, 19, 32, MATMUL), (2, 2, 30453, 21, 22, CAST)]
    assert warehouse_db.execute(OPS, (result.source_id,)).fetchall() == [
        (1, 2, MATMUL, "MatMul", "16000,39;39,1", "NUMBER_TYPE_FLOAT32;NUMBER_TYPE_FLOAT32",
         "DefaultFormat;DefaultFormat", "16000,1", "NUMBER_TYPE_FLOAT32", "DefaultFormat"),
        (2, 2, CAST, "Cast", "16000,1", "NUMBER_TYPE_FLOAT32", "DefaultFormat", "16000,1", "NUMBER_TYPE_FLOAT16",
         "DefaultFormat")]


def test_the_later_header_and_an_operator_of_two_tasks(warehouse_db, tmp_path):
    # MindSpore's later header (full_op_name, op_name its own name, op_type); an operator run by two tasks is one
    rows = [[30109, 19, 32, MATMUL, "MatMul-op38", "MatMul", "Default", ""],
            [30110, 19, 32, MATMUL, "MatMul-op38", "MatMul", "Default", json.dumps({"output_0": {"shape": "2,2"}})]]
    path = tmp_path / "framework_raw_0.csv"
    path.write_bytes(csv_module_bytes(("task_id", "stream_id", "block_dim", "full_op_name", "op_name", "op_type",
                                       "subgraph", "op_info"), rows))
    result = ingest_file(warehouse_db, path)
    assert (result.status, result.rows) == ("ok", 3)
    assert warehouse_db.execute(OPS, (result.source_id,)).fetchall() == [
        (1, 0, MATMUL, "MatMul", None, None, None, None, None, None)]


def test_the_host_files_answer_and_the_csv_agrees_with_them(warehouse_db, tmp_path):
    folder = tmp_path / "JOB1"
    TaskDescFactory(path=folder / "Framework.host.vm.task_desc_info.0.slice_0")
    GraphDescFactory(path=folder / "Framework.host.vm.graph_desc_info.0.slice_0")
    FrameworkRawFactory(path=folder / "framework_raw_0.csv")
    assert {r.status for r in ingest_paths(warehouse_db, [folder])} == {"ok"}
    assert warehouse_db.execute(
        "SELECT fact, kind FROM answer_source ORDER BY fact").fetchall() == [
        ("framework_op", "mindspore_framework_graph_desc"), ("framework_task", "mindspore_framework_task_desc")]
    assert agreement(warehouse_db) == []


def test_a_csv_that_differs_from_the_host_files_is_listed(warehouse_db, tmp_path):
    folder = tmp_path / "JOB1"
    TaskDescFactory(path=folder / "Framework.host.vm.task_desc_info.0.slice_0")
    GraphDescFactory(path=folder / "Framework.host.vm.graph_desc_info.0.slice_0")
    written = FrameworkRawFactory(path=folder / "framework_raw_0.csv")
    rows = [list(row) for row in written.rows]
    rows[0][2] = 16  # the MatMul's block dim
    rows[1][6] = "Cast2"  # the Cast's type
    rows.append([30999, 3, 1, "Default/Mul-op1", "Default/Mul-op1", "Mul-op1", "Mul", "Default", ""])
    written.path.write_bytes(csv_module_bytes(written.header, rows))
    ingest_paths(warehouse_db, [folder])
    assert [(row[2], row[3], row[4]) for row in agreement(warehouse_db)] == [
        (3, 30999, "missing from the task file"), (19, 30109, "block_dim"), (21, 30453, "op_type")]


@pytest.mark.parametrize(("factory", "name", "data", "reason", "table"), [
    (TaskDescFactory, "Framework.host.task_desc_info.0.slice_0", b"Default/Mul-op1 1 x 3\n",
     "line 3: expected '<op name> <block dim> <task id> <stream id>'", "mindspore_framework_task"),
    (TaskDescFactory, "Framework.host.task_desc_info.0.slice_0", b"Default/Mul-op1 1 99999999999999999999 3\n",
     "line 3: number out of range", "mindspore_framework_task"),
    (GraphDescFactory, "Framework.host.vm.graph_desc_info.0.slice_0", b"op_type:Mul\n",
     "line 3: no 'op_name:' field", "mindspore_framework_op"),
    (GraphDescFactory, "Framework.host.vm.graph_desc_info.0.JOB2.slice_0", b"op_name:a input_id:x\n",
     "line 3: a tensor id that is not a number", "mindspore_framework_op"),
    (GraphDescFactory, "Framework.host.vm.graph_desc_info.0.slice_0", b"op_name:a input_shape:\"1\"\n",
     "line 3: 'input_shape' before its tensor's id", "mindspore_framework_op"),
    (PointFactory, "Framework.host.vm.point.0.slice_0", b"x Default/Mul-op1\n",
     "line 5: expected '<tag> <op name>'", "mindspore_framework_point"),
    (FrameworkRawFactory, "framework_raw_0.csv", b'1,2,3,a,a,a,Mul,Default,"{""input_0"": 1}"\r\n',
     "line 4: op_info: 'input_0' is not an input_N or output_N object", "mindspore_framework_task"),
    (FrameworkRawFactory, "framework_raw_0.csv", b"1,2,x,a,a,a,Mul,Default,\r\n",
     "line 4: invalid literal", "mindspore_framework_op"),
    (FrameworkRawFactory, "framework_raw_0.csv", b"1,2,3,a\r\n", "line 4: 4 fields for a header of 9",
     "mindspore_framework_op"),
], ids=["task-not-a-number", "task-too-large", "graph-no-name", "graph-job-named-tensor-id", "graph-field-before-id",
        "point", "csv-op-info", "csv-number", "csv-short"])
def test_a_hostile_file_fails_naming_its_line(warehouse_db, tmp_path, factory, name, data, reason, table):
    written = factory(path=tmp_path / name)
    assert_fails_naming(warehouse_db, written.path, written.data + data, reason, table)


def test_the_real_host_files(warehouse_db, realdata):
    """JOB3's Framework.host.vm files: figures from the files read here independently, a line each."""
    folder = realdata / "mindinsight" / "JOB3"
    task_lines = (folder / "Framework.host.vm.task_desc_info.1.slice_0").read_text().splitlines()
    results = ingest_paths(warehouse_db, sorted(folder.glob("Framework.host.vm.*")))
    assert [(r.kind, r.rows) for r in results] == [
        ("mindspore_framework_graph_desc", 199), ("mindspore_framework_point", 8),
        ("mindspore_framework_task_desc", 199)]
    assert len(task_lines) == 199
    assert warehouse_db.execute(
        "SELECT count(*), count(DISTINCT op_name), sum(block_dim), min(rank_id) FROM mindspore_framework_task"
    ).fetchone() == (199, len({line.split(" ")[0] for line in task_lines}),
                     sum(int(line.split(" ")[1]) for line in task_lines), 1)
    # every task's operator is in the graph file, with a type
    assert warehouse_db.execute(
        "SELECT count(*) FROM mindspore_framework_task AS t JOIN mindspore_framework_op AS o USING (op_name) "
        "WHERE o.op_type IS NOT NULL").fetchone() == (199,)
    # the forward pass starts at the Cast, the backward ends at the TransData; tags 3-8 three reduce operators
    assert warehouse_db.execute(
        "SELECT tag, op_name FROM mindspore_framework_point WHERE tag IN (1, 2) ORDER BY tag").fetchall() == [
        (1, "Default/Cast-op6"), (2, "Default/TransData-op7")]
    assert warehouse_db.execute(
        "SELECT count(DISTINCT op_name), max(tag) FROM mindspore_framework_point WHERE tag > 2").fetchone() == (3, 8)


def test_the_real_csv_gives_mindinsight_s_operators(warehouse_db, realdata):
    """framework_raw_1.csv: MindInsight's AI Core detail analyser reads its 10 operators, the one of type
    MatMul the tenth (tests/ut/profiler/analyser/test_analyser_aicore_detail.py: size 10, index 9 the
    MatMul, the other types AtomicAddrClean, Cast, TransData, Conv2D)."""
    result = ingest_file(warehouse_db, realdata / "mindinsight" / "profiler" / "framework_raw_1.csv")
    assert (result.status, result.rows) == ("ok", 20)
    assert warehouse_db.execute(
        "SELECT op_type, count(*) FROM mindspore_framework_op GROUP BY op_type ORDER BY op_type").fetchall() == [
        ("AtomicAddrClean", 3), ("Cast", 3), ("Conv2D", 1), ("MatMul", 1), ("TransData", 2)]
    assert warehouse_db.execute(
        "SELECT source_row, op_name, input_shapes, output_shapes FROM mindspore_framework_op WHERE op_type = 'MatMul'"
    ).fetchone() == (10, "Default/network-WithLossCell/_backbone-LeNet5/fc3-Dense/MatMul-op9", "32,120;84,120;84",
                     "32,84")  # its op_info, read in the file: LeNet5's fc3 of 120 -> 84 (with its bias)
