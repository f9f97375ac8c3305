"""output_timeline_data_{device}.txt (MindSpore's own kernel timeline) into ``kernel``, reconciled with the
raw HWTS log's kernels by the audit mindspore_timeline_agrees.

The real figures are those of MindInsight's test resources, tests/utils/resource/run_2/normal_run/profiler/:
output_timeline_data_1.txt's lines 2, 3, 107 and 108, the same operators' execution time in
aicore_intermediate_1_detail.csv (lines 2 and 3: the mean of the timeline's runs; for all 105 operators of
the two files), and output_format_data_hwts_1.txt's tasks 519_4 and 519_6 (lines 19-20 and 21-26): every
one of the timeline's 107 kernels is a task of that dump, on its stream, with its start and length."""

from __future__ import annotations

import pytest

from tests.factories.mindspore import (
    FRAMEWORK_TASKS,
    HWTS_TASKS,
    TIMELINE_HEADER,
    HwtsRawFactory,
    HwtsTextFactory,
    TimelineDataFactory,
    framework_timeline,
    hwts_job,
    timeline_data,
)
from tests.sources.audit_examples import audit_examples
from tests.sources.mindspore_hostile import assert_fails_naming
from tests.sources.test_mindspore_hwts_txt import RUN_2_TASKS
from warehouse.ingest import ingest_file, ingest_paths

NAME = "output_timeline_data_0.txt"
KERNELS = ("SELECT source_row, origin, rank_id, name, op_type, accelerator_core, stream_id, ts, dur, op_class "
           "FROM kernel")
ASSIGN_ADD, TRANS_DATA = "Default/AssignAdd-op142", "Default/TransData-op118"
#: run_2's two runs of each, grouped by operator as MindSpore gathers them: (name, stream, start, duration cycles)
RUN_2_ROWS = [(ASSIGN_ADD, 519, 15490789595956, 310), (ASSIGN_ADD, 519, 15490791998449, 128),
              (TRANS_DATA, 519, 15490789596517, 4664), (TRANS_DATA, 519, 15490791998694, 4743)]


def agreement(conn) -> list[tuple]:
    return audit_examples(conn, "mindspore_timeline_agrees")


def test_the_factory_writes_run_2_s_lines_and_each_is_a_kernel(warehouse_db, tmp_path):
    written = TimelineDataFactory(path=tmp_path / "output_timeline_data_1.txt", rows=RUN_2_ROWS)
    assert written.data.decode() == (f"{TIMELINE_HEADER}\n"
                                     "Default/AssignAdd-op142,519,154907895.95956,0.0031\n"
                                     "Default/TransData-op118,519,154907895.96517,0.04664\n"
                                     "Default/AssignAdd-op142,519,154907919.98449,0.00128\n"
                                     "Default/TransData-op118,519,154907919.98694,0.04743\n")
    result = ingest_file(warehouse_db, written.path)
    assert (result.status, result.kind, result.rows) == ("ok", "mindspore_timeline_txt", 4)
    # the dump's task 519_4 runs 15490789595956 to 15490789596266: 310 cycles of 10 ns
    assert warehouse_db.execute(KERNELS + " ORDER BY ts LIMIT 1").fetchone() == (
        2, "mindspore_timeline", 1, "AssignAdd-op142", "AssignAdd", "AI_CORE", 519, 154907895959560, 3100, "aic")
    # aicore_intermediate_1_detail.csv: AssignAdd-op142 0.00219 ms, TransData-op118 0.047035 ms, the means
    means = "SELECT name, avg(dur), count(*) FROM kernel GROUP BY name ORDER BY name"
    assert warehouse_db.execute(means).fetchall() == [
        ("AssignAdd-op142", 2190.0, 2), ("TransData-op118", 47035.0, 2)]


def test_the_raw_log_s_kernels_answer_and_the_timeline_agrees(warehouse_db, tmp_path):
    hwts_job(tmp_path / "JOB")
    TimelineDataFactory(path=tmp_path / "JOB" / NAME)
    assert {r.status for r in ingest_paths(warehouse_db, [tmp_path / "JOB"])} == {"ok"}
    assert warehouse_db.execute("SELECT kind FROM answer_source WHERE fact = 'kernel'").fetchall() == [
        ("mindspore_hwts_raw",)]
    by_origin = "SELECT name, op_type, stream_id, ts, dur FROM kernel WHERE origin = ? ORDER BY ts"
    assert warehouse_db.execute(by_origin, ("mindspore_timeline",)).fetchall() == warehouse_db.execute(
        by_origin, ("mindspore_hwts",)).fetchall()
    assert agreement(warehouse_db) == []


def test_a_timeline_that_differs_from_the_raw_kernels_is_listed(warehouse_db, tmp_path):
    """MindSpore pairs a start with the next named record only when that is its end: the MatMul the Cast
    starts inside is not on MindSpore's timeline of this log."""
    files = hwts_job(tmp_path / "JOB")
    HwtsRawFactory(path=files["hwts"].path, rows=[*HWTS_TASKS, (60002, 513, 43806860000, 43806860100)])
    rows = framework_timeline(HWTS_TASKS)
    rows[1] = (*rows[1][:3], rows[1][3] + 3)  # the Cast 3 cycles longer
    rows[2] = ("Default/Cast-op41", *rows[2][1:])  # the second MatMul named as the Cast
    rows.append(("Default/Cast-op1", 513, 43806860000, 100))  # a task the framework files do not name
    (tmp_path / "JOB" / NAME).write_bytes(timeline_data(rows[1:]))
    ingest_paths(warehouse_db, [tmp_path / "JOB"])
    assert [row[2:7] for row in agreement(warehouse_db)] == [
        (535, 438068335780, "missing from the timeline", None, "MatMul-op38"),
        (537, 438068350000, "dur", "Cast-op41", "Cast-op41"),
        (535, 438068500000, "name", "Cast-op41", "MatMul-op38"),
        (513, 438068600000, "not named by the framework files", "Cast-op1", None)]


def test_where_the_text_dump_answers_the_tasks_each_kernel_is_one_of_them(warehouse_db, tmp_path):
    """run_2's timeline kernels AssignAdd-op142 and TransData-op118 are the dump's tasks 519_4 and 519_6 (all
    107 of its kernels are tasks of its dump: warehouse check passes mindspore_timeline_agrees on that folder)."""
    HwtsTextFactory(path=tmp_path / "profiler" / "output_format_data_hwts_1.txt",
                    rows=[*RUN_2_TASKS, (6, 519, 15490789596517, 15490789601181)])
    written = TimelineDataFactory(path=tmp_path / "profiler" / "output_timeline_data_1.txt", rows=RUN_2_ROWS[::2])
    assert {r.status for r in ingest_paths(warehouse_db, [tmp_path / "profiler"])} == {"ok"}
    assert agreement(warehouse_db) == []
    TimelineDataFactory(path=written.path, rows=RUN_2_ROWS)  # the later two are no task of this dump
    ingest_paths(warehouse_db, [tmp_path / "profiler"])
    assert [row[2:6] for row in agreement(warehouse_db)] == [
        (519, 154907919984490, "not a task of the HWTS log", "AssignAdd-op142"),
        (519, 154907919986940, "not a task of the HWTS log", "TransData-op118")]


def test_a_kernel_is_named_and_typed_as_mindspore_reads_its_name(warehouse_db, tmp_path):
    written = TimelineDataFactory(path=tmp_path / NAME, rows=[(FRAMEWORK_TASKS[0][0], 19, 100, 1),
                                                              ("Gradients/Default/FusionOp_ReluGradV2_Cast-op180", 19,
                                                               200, 100000)])
    ingest_file(warehouse_db, written.path)
    # 1 cycle is 1e-05 ms as Python prints it
    assert b",1e-05\n" in written.data
    assert warehouse_db.execute("SELECT name, op_type, dur FROM kernel ORDER BY ts").fetchall() == [
        ("MatMul-op38", "MatMul", 10), ("FusionOp_ReluGradV2_Cast-op180", "FusionOp_ReluGradV2_Cast", 1000000)]


@pytest.mark.parametrize(("change", "reason"), [
    (lambda data: data.replace(b",537,", b",537,1,"), "line 3: expected '<op name>,<stream>,<start ms>,<duration ms>'"),
    (lambda data: data.replace(b",537,", b",x,"), "line 3: expected '<op name>,<stream>"),
    (lambda data: data.replace(b",0.01234", b",-0.01234"), "line 3: a start and a duration of 0 or more expected"),
    (lambda data: data.replace(b"438068.35,", b"438068.35e99999,"), "line 3: number out of range"),
])
def test_a_hostile_timeline_fails_naming_the_line(warehouse_db, tmp_path, change, reason):
    written = TimelineDataFactory(path=tmp_path / NAME)
    assert_fails_naming(warehouse_db, written.path, change(written.data), reason, "kernel")
