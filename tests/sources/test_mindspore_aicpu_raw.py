"""DATA_PREPROCESS.dev.AICPU.{device}.slice_{n} (MindSpore's raw AI CPU records) into ``mindspore_aicpu_op``."""

from __future__ import annotations

import pytest

from tests.factories.mindspore import AicpuRawFactory, aicpu_record
from tests.sources.mindspore_hostile import assert_fails_naming
from warehouse.ingest import ingest_file

NAME = "DATA_PREPROCESS.dev.AICPU.2.slice_0"
#: MindSpore's table of the AI CPU operators (its node_type_name, total and dispatch time, run points)
MINDSPORE_TABLE = (
    "SELECT row_number() OVER (ORDER BY source_row), op_type, total_ns, dispatch_ns, run_start, run_end "
    "FROM mindspore_aicpu_op WHERE name IS NOT NULL ORDER BY source_row")


def test_tasks_with_their_operator_and_stages_on_the_device_of_the_file_name(warehouse_db, tmp_path):
    path = tmp_path / "data" / NAME
    AicpuRawFactory(path=path)
    result = ingest_file(warehouse_db, path)
    assert (result.status, result.kind, result.rows) == ("ok", "mindspore_aicpu_raw", 3)
    assert warehouse_db.execute("SELECT rank_id, device_id, detail FROM source").fetchone() == (
        2, 2, '{"table": "mindspore_aicpu_op", "tasks": 3, "named": 3}')
    rows = warehouse_db.execute(
        "SELECT source_row, rank_id, byte_offset, name, op_type, run_start, compute_start, memcpy_start, memcpy_end, "
        "run_end, thread_id, device_id, aicpu_id, tick_drv_top_half, tick_drv_bottom_half, tick_before_run, "
        "tick_after_run, dispatch_ns, total_ns FROM mindspore_aicpu_op ORDER BY source_row").fetchall()
    assert rows[0] == (1, 2, 0, "InitData", "InitData", 2298200409, None, None, None, 2298200538, 1, 0, 0,
                       38753260078, 38753261085, 38753270138, 38753416849, 100000, 1567000)
    # a kernel that is not MindSpore's: its type is the scope's last part before '-', with its copy stages
    assert rows[2][3:10] == ("Default/TruncatedNormal-op0", "TruncatedNormal", 4098200409, 4098200509, 4098200600,
                             4098200606, 4098200538)
    assert [row[2] for row in rows] == [0, 267, 531]


def test_a_node_without_its_thread_and_a_thread_without_its_node_are_tasks_still(warehouse_db, tmp_path):
    written = AicpuRawFactory(path=tmp_path / NAME)
    tasks = written.rows
    lone_node = {key: value for key, value in tasks[0].items() if key != "ticks"}
    lone_thread = {key: value for key, value in tasks[1].items() if key != "name"}
    written.path.write_bytes(aicpu_record(lone_thread) + aicpu_record(tasks[2]) + aicpu_record(lone_node))
    assert ingest_file(warehouse_db, written.path).status == "ok"
    assert warehouse_db.execute(
        "SELECT source_row, name, run_end, thread_id, total_ns FROM mindspore_aicpu_op ORDER BY source_row"
    ).fetchall() == [
        (1, None, None, 1, 989000), (2, "Default/TruncatedNormal-op0", 4098200538, 1, 1566000),
        (3, "InitData", 2298200538, None, None)]


@pytest.mark.parametrize(("change", "reason"), [
    (lambda data: data[:-5], "byte 691: a record cut short (no NUL after its 194 bytes)"),
    (lambda data: data.replace(b"dispatchTime=87 us", b"dispatchTime=87"),
     "byte 334: field 'dispatchTime' expected, found 'dispatchTime=87'"),
    (lambda data: data.replace(b", Run end:2298200538", b""),
     "byte 0: a Node record of 2 fields (MindSpore reads 3 or 6)"),
    (lambda data: data.replace(b"tickBeforeRun=38753270138", b"tickBeforeRun=x"),
     "byte 68: field 'tickBeforeRun' expected"),
    (lambda data: data[:100] + b"\xff" + data[101:], "byte 100: not UTF-8 text"),
])
def test_a_hostile_file_fails_naming_the_byte_offset(warehouse_db, tmp_path, change, reason):
    written = AicpuRawFactory(path=tmp_path / NAME)
    assert_fails_naming(warehouse_db, written.path, change(written.data), reason, "mindspore_aicpu_op")


def test_the_real_file_gives_mindinsight_s_expected_table(warehouse_db, realdata):
    """JOB_AICPU/expect/output_data_preprocess_aicpu_0.txt is MindInsight's expected parse of the file
    (tests/ut/profiler/parser/test_aicpu_parser.py): the test reads it and compares every row."""
    folder = realdata / "mindinsight" / "JOB_AICPU"
    result = ingest_file(warehouse_db, folder / "data" / "DATA_PREPROCESS.dev.AICPU.0.slice_0")
    assert (result.status, result.rows) == ("ok", 3)
    lines = (folder / "expect" / "output_data_preprocess_aicpu_0.txt").read_text().splitlines()
    expected = [line.split() for line in lines[2:-1]]
    assert warehouse_db.execute(MINDSPORE_TABLE).fetchall() == [
        (int(number), name, round(float(total) * 1e6), round(float(dispatch) * 1e6), int(start), int(end))
        for number, name, total, dispatch, start, end in expected]
    # its last line: the total of the operators' times (ms)
    total_ms = float(lines[-1].split(":")[-1])
    assert warehouse_db.execute("SELECT sum(total_ns) FROM mindspore_aicpu_op").fetchone() == (round(total_ms * 1e6),)


def test_the_real_file_of_threads_alone(warehouse_db, realdata):
    """JOB3's AI CPU file holds Thread records only (MindSpore's parser lists none of them): figures
    from the file read here independently, every record ended by a NUL."""
    path = realdata / "mindinsight" / "JOB3" / "DATA_PREPROCESS.dev.AICPU.1.slice_0"
    records = [record for record in path.read_bytes().split(b"\x00") if record.strip()]
    totals = [int(record.rsplit(b"totalTime=", 1)[1].split()[0]) for record in records]
    result = ingest_file(warehouse_db, path)
    assert (result.status, result.rows) == ("ok", len(records))
    assert len(records) == 323
    assert warehouse_db.execute(
        "SELECT count(*), count(name), sum(total_ns), min(rank_id), max(device_id) FROM mindspore_aicpu_op"
    ).fetchone() == (323, 0, sum(totals) * 1000, 1, 0)
