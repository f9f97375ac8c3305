"""output_data_preprocess_aicpu_{device}.txt (MindSpore's AI CPU table, its intermediate of
DATA_PREPROCESS.dev.AICPU) into ``mindspore_aicpu_op``, reconciled with the raw file by the audit
mindspore_aicpu_agrees."""

from __future__ import annotations

import pytest

from tests.factories.mindspore import (AicpuExecutionTableFactory, AicpuIntermediateFactory, AicpuRawFactory,
                                      AicpuTableFactory, aicpu_table, job_aicpu_tasks)
from tests.sources.audit_examples import audit_examples
from tests.sources.mindspore_hostile import assert_fails_naming
from warehouse.ingest import ingest_file, ingest_paths

NAME = "output_data_preprocess_aicpu_0.txt"
TABLE = ("SELECT source_row, rank_id, name, op_type, total_ns, dispatch_ns, run_start, run_end, thread_id "
         "FROM mindspore_aicpu_op ORDER BY source_row")


def agreement(conn) -> list[tuple]:
    return audit_examples(conn, "mindspore_aicpu_agrees")


def test_the_table_s_tasks_by_serial_number(warehouse_db, tmp_path):
    written = AicpuTableFactory(path=tmp_path / "output_data_preprocess_aicpu_2.txt")
    result = ingest_file(warehouse_db, written.path)
    assert (result.status, result.kind, result.rows) == ("ok", "mindspore_aicpu_txt", 3)
    # ms to ns; the operator type only (the table names no operator), no stages
    assert warehouse_db.execute(TABLE).fetchall() == [
        (1, 2, None, "InitData", 1567000, 100000, 2298200409, 2298200538, None),
        (2, 2, None, "GetNext", 989000, 87000, 2302769932, 2302769980, None),
        (3, 2, None, "TruncatedNormal", 1566000, 105000, 4098200409, 4098200538, None)]
    assert '"total_ms": "4.122000"' in warehouse_db.execute("SELECT detail FROM source").fetchone()[0]


def test_the_plain_layout_without_dashes_reads_alike(warehouse_db, tmp_path):
    """MindInsight's run_2 output_data_preprocess_aicpu_1.txt: one space between fields, no line of dashes."""
    written = AicpuTableFactory(path=tmp_path / "output_data_preprocess_aicpu_2.txt")
    plain = [b" ".join(line.split()) for line in written.data.splitlines()]
    written.path.write_bytes(b"\n".join(plain[:1] + plain[2:]) + b"\n")
    assert plain[1].startswith(b"---")
    result = ingest_file(warehouse_db, written.path)
    assert (result.status, result.rows) == ("ok", 3)
    assert [row[3] for row in warehouse_db.execute(TABLE)] == ["InitData", "GetNext", "TruncatedNormal"]


def test_the_raw_file_answers_and_the_table_agrees_with_it(warehouse_db, tmp_path):
    AicpuRawFactory(path=tmp_path / "JOB" / "DATA_PREPROCESS.dev.AICPU.0.slice_0")
    AicpuTableFactory(path=tmp_path / "JOB" / NAME)
    assert {r.status for r in ingest_paths(warehouse_db, [tmp_path / "JOB"])} == {"ok"}
    assert warehouse_db.execute("SELECT kind FROM answer_source WHERE fact = 'aicpu_op'").fetchall() == [
        ("mindspore_aicpu_raw",)]
    assert agreement(warehouse_db) == []


def test_a_table_that_differs_from_the_raw_file_is_listed(warehouse_db, tmp_path):
    AicpuRawFactory(path=tmp_path / "JOB" / "DATA_PREPROCESS.dev.AICPU.0.slice_0")
    tasks = job_aicpu_tasks()
    tasks[1]["total_us"] = 1989  # GetNext a ms longer
    tasks.append({**tasks[0], "name": "Fourth"})
    (tmp_path / "JOB" / NAME).write_bytes(aicpu_table(tasks))
    ingest_paths(warehouse_db, [tmp_path / "JOB"])
    assert [row[2:5] for row in agreement(warehouse_db)] == [
        (2, "total_ns", "GetNext"), (4, "missing from the answer", "Fourth")]


def test_the_newer_table_gives_execution_times_and_run_points_to_the_us(warehouse_db, tmp_path):
    """MindSpore's newer table: execution_time(ms) the run points' difference (0.129 ms for InitData's
    2298200409-2298200538 us), the run points the counter over 100 (229820040917 cycles: 2298200409.17 us)."""
    written = AicpuExecutionTableFactory(path=tmp_path / "output_data_preprocess_aicpu_2.txt")
    assert written.data.splitlines()[:2] == [
        b"serial_number node_type_name total_time(ms) dispatch_time(ms) execution_time(ms) run_start run_end",
        b"1 InitData 1.567 0.1 0.129 2298200409.17 2298200538.03"]
    result = ingest_file(warehouse_db, written.path)
    assert (result.status, result.kind, result.rows) == ("ok", "mindspore_aicpu_txt", 3)
    assert warehouse_db.execute(TABLE.replace("thread_id", "execution_ns")).fetchall() == [
        (1, 2, None, "InitData", 1567000, 100000, 2298200409, 2298200538, 129000),
        (2, 2, None, "GetNext", 989000, 87000, 2302769932, 2302769980, 48000),
        (3, 2, None, "TruncatedNormal", 1566000, 105000, 4098200409, 4098200538, 129000)]
    assert '"total_ms": "4.122000"' in warehouse_db.execute("SELECT detail FROM source").fetchone()[0]


def test_the_newer_table_answers_and_its_csv_copy_agrees(warehouse_db, tmp_path):
    """The integrator's CSV copy of the newer table (its task lines' fields as written) holds the same tasks."""
    table = AicpuExecutionTableFactory(path=tmp_path / "JOB" / NAME)
    AicpuIntermediateFactory(path=tmp_path / "JOB" / "aicpu_intermediate_0.csv",
                             header=("serial_number", "op_type", "total_time", "dispatch_time", "execution_time",
                                     "run_start", "run_end"),
                             rows=[line.split() for line in table.data.decode().splitlines()[1:-1]])
    assert {r.status for r in ingest_paths(warehouse_db, [tmp_path / "JOB"])} == {"ok"}
    assert warehouse_db.execute("SELECT kind FROM answer_source WHERE fact = 'aicpu_op'").fetchall() == [
        ("mindspore_aicpu_txt",)]
    assert warehouse_db.execute("SELECT count(DISTINCT source_id), count(execution_ns) FROM mindspore_aicpu_op"
                                ).fetchone() == (2, 6)
    assert agreement(warehouse_db) == []


@pytest.mark.parametrize(("table", "change", "reason"), [
    (AicpuTableFactory, lambda data: data.replace(b"1.567", b"x.567"), "line 3: "),
    (AicpuTableFactory, lambda data: data.replace(b"2302769980", b""), "line 4: 5 fields for a header of 6"),
    (AicpuTableFactory, lambda data: data.replace(b"2298200538\n", b"99999999999999999999\n"),
     "line 3: number out of range"),
    (AicpuTableFactory, lambda data: data + b"4 Fourth 1.0 0.1 1 2\n", "line 7: a line after the total line"),
    (AicpuExecutionTableFactory, lambda data: data.replace(b"0.129 2298200409.17", b"2298200409.17"),
     "line 2: 6 fields for a header of 7"),
    (AicpuExecutionTableFactory, lambda data: data.replace(b"2298200538.03", b"2298200538.x"), "line 2: "),
    (AicpuExecutionTableFactory, lambda data: data + b"4 Fourth 1.0 0.1 0.1 1 2\n",
     "line 6: a line after the total line"),
])
def test_a_hostile_table_fails_naming_the_line(warehouse_db, tmp_path, table, change, reason):
    written = table(path=tmp_path / NAME)
    assert_fails_naming(warehouse_db, written.path, change(written.data), reason, "mindspore_aicpu_op")


def test_the_real_table_is_mindinsight_s_expected_parse_of_the_raw_file(warehouse_db, realdata):
    """JOB_AICPU/expect/output_data_preprocess_aicpu_0.txt: MindInsight's expected parse of the raw file beside
    it (tests/ut/profiler/parser/test_aicpu_parser.py); the factory writes it byte for byte, and its three
    tasks (4.122 ms in all) are the raw file's. The two are in different folders, so different runs here:
    the audit, which compares within a run, has nothing to compare."""
    folder = realdata / "mindinsight" / "JOB_AICPU"
    assert (folder / "expect" / NAME).read_bytes() == aicpu_table(job_aicpu_tasks())
    results = ingest_paths(warehouse_db, [folder])
    assert [(r.kind, r.rows) for r in results] == [("mindspore_aicpu_raw", 3), ("mindspore_aicpu_txt", 3)]
    by_kind = ("SELECT o.op_type, o.total_ns, o.dispatch_ns, o.run_start, o.run_end FROM mindspore_aicpu_op AS o "
               "JOIN source AS s ON s.id = o.source_id WHERE s.kind = ? AND o.name IS NOT NULL IS ? ORDER BY o.source_row")
    table = warehouse_db.execute(by_kind, ("mindspore_aicpu_txt", False)).fetchall()
    assert table == warehouse_db.execute(by_kind, ("mindspore_aicpu_raw", True)).fetchall()
    assert sum(row[1] for row in table) == 4122000
    assert agreement(warehouse_db) == []
