"""aicpu_intermediate_{device}.csv (MindSpore's CSV copy of its AI CPU table) into ``mindspore_aicpu_op``, after
the raw file and the text table, reconciled with the one that answers by the audit mindspore_aicpu_agrees.

The real figures are those of MindInsight's test resources, tests/utils/resource/run_2/normal_run/profiler/:
aicpu_intermediate_1.csv (all of it below) and output_data_preprocess_aicpu_1.txt beside it, the same five
tasks (9.694 ms in all, its last line)."""

from __future__ import annotations

import pytest

from tests.factories.mindspore import (
    AicpuIntermediateFactory,
    AicpuRawFactory,
    AicpuTableFactory,
    aicpu_table,
    aicpu_table_rows,
    aicpu_task,
)
from tests.sources.audit_examples import audit_examples
from tests.sources.mindspore_hostile import assert_fails_naming
from warehouse.ingest import ingest_file, ingest_paths

NAME = "aicpu_intermediate_0.csv"
TABLE = ("SELECT source_row, rank_id, op_type, total_ns, dispatch_ns, execution_ns, run_start, run_end "
         "FROM mindspore_aicpu_op")
#: run_2's tasks: (type, total us, dispatch us, run start, run end)
RUN_2 = [("InitData", 7906, 150, 154901853050, 154901853210), ("GetNext", 888, 132, 154907895189, 154907895707),
         ("EndOfSequence", 282, 78, 154907896287, 154907896335), ("GetNext", 293, 73, 154907896880, 154907896958),
         ("EndOfSequence", 325, 91, 154907920308, 154907920348)]
#: run_2's header: MindInsight names the type column kernel_type; execution_time since June 2021
RUN_2_HEADER = ("serial_number", "kernel_type", "total_time", "dispatch_time", "execution_time", "run_start", "run_end")


def run_2_tasks() -> list[dict]:
    return [aicpu_task(0, name, (start, end), (0, 0, 0, 0), dispatch, total)
            for name, total, dispatch, start, end in RUN_2]


def agreement(conn) -> list[tuple]:
    return audit_examples(conn, "mindspore_aicpu_agrees")


def test_the_factory_writes_run_2_s_file_and_each_task_is_a_row(warehouse_db, tmp_path):
    # MindInsight's file gives every task an execution time of 0.22 ms (its commit 40db5a2f added the column)
    rows = [[*row[:4], "0.22", *row[4:]] for row in aicpu_table_rows(run_2_tasks())]
    written = AicpuIntermediateFactory(path=tmp_path / "aicpu_intermediate_1.csv", header=RUN_2_HEADER, rows=rows)
    assert written.data == (b"serial_number,kernel_type,total_time,dispatch_time,execution_time,run_start,run_end\r\n"
                            b"1,InitData,7.906,0.15,0.22,154901853050,154901853210\r\n"
                            b"2,GetNext,0.888,0.132,0.22,154907895189,154907895707\r\n"
                            b"3,EndOfSequence,0.282,0.078,0.22,154907896287,154907896335\r\n"
                            b"4,GetNext,0.293,0.073,0.22,154907896880,154907896958\r\n"
                            b"5,EndOfSequence,0.325,0.091,0.22,154907920308,154907920348\r\n")
    result = ingest_file(warehouse_db, written.path)
    assert (result.status, result.kind, result.rows) == ("ok", "mindspore_aicpu_csv", 5)
    assert warehouse_db.execute(TABLE + " ORDER BY source_row LIMIT 2").fetchall() == [
        (1, 1, "InitData", 7906000, 150000, 220000, 154901853050, 154901853210),
        (2, 1, "GetNext", 888000, 132000, 220000, 154907895189, 154907895707)]
    # output_data_preprocess_aicpu_1.txt's last line: AI CPU Total Time(ms): 9.694000
    assert warehouse_db.execute("SELECT sum(total_ns) FROM mindspore_aicpu_op").fetchone() == (9694000,)


def test_the_text_table_answers_before_it_and_the_two_agree(warehouse_db, tmp_path):
    (tmp_path / "profiler").mkdir()
    (tmp_path / "profiler" / "output_data_preprocess_aicpu_1.txt").write_bytes(aicpu_table(run_2_tasks()))
    AicpuIntermediateFactory(path=tmp_path / "profiler" / "aicpu_intermediate_1.csv",
                             rows=aicpu_table_rows(run_2_tasks()))
    assert {r.status for r in ingest_paths(warehouse_db, [tmp_path / "profiler"])} == {"ok"}
    assert warehouse_db.execute("SELECT kind FROM answer_source WHERE fact = 'aicpu_op'").fetchall() == [
        ("mindspore_aicpu_txt",)]
    assert agreement(warehouse_db) == []


def test_the_raw_file_answers_and_both_tables_are_reconciled_with_it(warehouse_db, tmp_path):
    AicpuRawFactory(path=tmp_path / "JOB" / "DATA_PREPROCESS.dev.AICPU.0.slice_0")
    AicpuTableFactory(path=tmp_path / "JOB" / "output_data_preprocess_aicpu_0.txt")
    rows = AicpuIntermediateFactory(path=tmp_path / "JOB" / NAME).rows
    assert {r.status for r in ingest_paths(warehouse_db, [tmp_path / "JOB"])} == {"ok"}
    assert warehouse_db.execute("SELECT kind FROM answer_source WHERE fact = 'aicpu_op'").fetchall() == [
        ("mindspore_aicpu_raw",)]
    assert agreement(warehouse_db) == []
    rows[2][1] = "Truncated"  # another operator type, and a fourth task the raw file lacks
    AicpuIntermediateFactory(path=tmp_path / "JOB" / NAME, rows=[*rows, ["4", "GetNext", "1", "1", "1", "2"]])
    ingest_paths(warehouse_db, [tmp_path / "JOB"])
    assert [row[2:6] for row in agreement(warehouse_db)] == [
        (3, "op_type", "Truncated", "TruncatedNormal"), (4, "missing from the answer", "GetNext", None)]


@pytest.mark.parametrize(("change", "reason"), [
    (lambda data: data.replace(b"1.567", b"x.567"), "line 2: column 'total_time'"),
    (lambda data: data.replace(b"2302769980", b"99999999999999999999"),
     "line 3: column 'run_end': number out of range"),
])
def test_a_hostile_csv_fails_naming_the_line(warehouse_db, tmp_path, change, reason):
    written = AicpuIntermediateFactory(path=tmp_path / NAME)
    assert_fails_naming(warehouse_db, written.path, change(written.data), reason, "mindspore_aicpu_op")
