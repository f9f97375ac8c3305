"""output_format_data_hwts_{device}.txt (MindSpore's text dump of the HWTS log) into ``mindspore_hwts_task``,
reconciled with the raw log by the audit mindspore_hwts_agrees.

The real figures are those of MindInsight's test resources, tests/utils/resource/run_2/normal_run/profiler/
output_format_data_hwts_1.txt (lines 1-20 below; the whole file: 268 records, 136 task starts and 132 ends,
132 tasks on streams 514, 517, 519, 520 and 524)."""

from __future__ import annotations

import pytest

from tests.factories.mindspore import HWTS_TASKS, HwtsRawFactory, HwtsTextFactory, hwts_text
from tests.sources.audit_examples import audit_examples
from tests.sources.mindspore_hostile import assert_fails_naming
from warehouse.ingest import ingest_file, ingest_paths

NAME = "output_format_data_hwts_0.txt"
TASKS = "SELECT source_row, rank_id, stream_id, task_id, start_ns, end_ns FROM mindspore_hwts_task ORDER BY source_row"
#: run_2's first 18 records: (task id, stream, start cycle[, end cycle])
RUN_2_TASKS = [(2, 517, 15490184485134, 15490184485134), (2, 520, 15490185343879, 15490185343880),
               (4, 517, 15490185488116, 15490185488117), (6, 517, 15490782610374, 15490782610375),
               (2, 524, 15490789478422), (2, 519, 15490789484734), (3, 514, 15490789585192, 15490789585193),
               (4, 514, 15490789585203, 15490789585204), (3, 519, 15490789595940, 15490789595945),
               (4, 519, 15490789595956, 15490789596266)]
#: run_2's lines 1-20 as MindSpore wrote them (the empty line after the rows is the file's last)
RUN_2_HEAD = """\
====================45 HWTS data====================
Type           cnt  Core_ID  Block_ID  Task_ID  Cycle_counter   Stream_ID
Start of task  0    0        0         517_2    15490184485134  517
End of task    1    0        0         517_2    15490184485134  517
Start of task  2    0        0         520_2    15490185343879  520
End of task    3    0        0         520_2    15490185343880  520
Start of task  4    0        0         517_4    15490185488116  517
End of task    5    0        0         517_4    15490185488117  517
Start of task  6    0        0         517_6    15490782610374  517
End of task    7    0        0         517_6    15490782610375  517
Start of task  8    0        0         524_2    15490789478422  524
Start of task  9    0        0         519_2    15490789484734  519
Start of task  10   0        0         514_3    15490789585192  514
End of task    11   0        0         514_3    15490789585193  514
Start of task  12   0        0         514_4    15490789585203  514
End of task    13   0        0         514_4    15490789585204  514
Start of task  14   0        0         519_3    15490789595940  519
End of task    15   0        0         519_3    15490789595945  519
Start of task  0    0        0         519_4    15490789595956  519
End of task    1    0        0         519_4    15490789596266  519

"""


def agreement(conn) -> list[tuple]:
    return audit_examples(conn, "mindspore_hwts_agrees")


def test_the_factory_writes_run_2_s_records_as_mindspore_did(warehouse_db, tmp_path):
    written = HwtsTextFactory(path=tmp_path / "output_format_data_hwts_1.txt", rows=RUN_2_TASKS)
    assert written.data.decode() == RUN_2_HEAD
    result = ingest_file(warehouse_db, written.path)
    assert (result.status, result.kind, result.rows) == ("ok", "mindspore_hwts_txt", 8)
    # 10 ns a cycle; a task starting and ending at one counter lasts 0; 524_2 and 519_2 end after line 20
    assert warehouse_db.execute(TASKS).fetchall()[:3] == [
        (3, 1, 517, 2, 154901844851340, 154901844851340), (5, 1, 520, 2, 154901853438790, 154901853438800),
        (7, 1, 517, 4, 154901854881160, 154901854881170)]
    assert warehouse_db.execute(TASKS).fetchall()[-1] == (19, 1, 519, 4, 154907895959560, 154907895962660)
    detail = warehouse_db.execute("SELECT detail FROM source").fetchone()[0]
    assert '"tasks": 8, "records": {"task_end": 8, "task_start": 10, "unpaired": 2}' in detail


def test_the_dump_gives_the_raw_log_s_tasks_and_the_raw_log_answers(warehouse_db, tmp_path):
    raw = HwtsRawFactory(path=tmp_path / "JOB" / "hwts.log.data.45.dev.profiler_default_tag.0.slice_0")
    HwtsTextFactory(path=tmp_path / "JOB" / NAME)
    assert {r.status for r in ingest_paths(warehouse_db, [raw.path.parent])} == {"ok"}
    by_kind = ("SELECT t.stream_id, t.task_id, t.start_ns, t.end_ns FROM mindspore_hwts_task AS t "
               "JOIN source AS s ON s.id = t.source_id WHERE s.kind = ? ORDER BY t.source_row")
    dumped = warehouse_db.execute(by_kind, ("mindspore_hwts_txt",)).fetchall()
    assert dumped == warehouse_db.execute(by_kind, ("mindspore_hwts_raw",)).fetchall()
    assert dumped == [(stream, task, start * 10, end * 10) for task, stream, start, end in HWTS_TASKS]
    assert warehouse_db.execute("SELECT kind FROM answer_source WHERE fact = 'hwts_task'").fetchall() == [
        ("mindspore_hwts_raw",)]
    assert agreement(warehouse_db) == []


def test_a_dump_that_differs_from_the_raw_log_is_listed(warehouse_db, tmp_path):
    HwtsRawFactory(path=tmp_path / "JOB" / "hwts.log.data.45.dev.profiler_default_tag.0.slice_0")
    tasks = list(HWTS_TASKS)
    tasks[2] = (30109, 535, 43806850000, 43806852001)  # the second MatMul a cycle longer
    tasks.append((30453, 537, 43806900000, 43806900100))  # a task the raw log lacks
    (tmp_path / "JOB" / NAME).write_bytes(hwts_text(tasks))
    ingest_paths(warehouse_db, [tmp_path / "JOB"])
    assert [row[2:4] for row in agreement(warehouse_db)] == [(3, "start/end"), (4, "missing from the raw log")]
    (tmp_path / "JOB" / NAME).write_bytes(hwts_text(HWTS_TASKS[:2]))
    ingest_paths(warehouse_db, [tmp_path / "JOB"])
    assert [row[2:6] for row in agreement(warehouse_db)] == [(3, "missing from the dump", 535, 30109)]


def test_task_ids_of_older_and_dynamic_shape_versions_and_block_records(warehouse_db, tmp_path):
    """Older versions wrote a task id from 25000 on alone; later ones add 65536 to the id each time a
    dynamic-shape graph's ids start again on its stream: stored as written, the raw log's id modulo 65536. A
    block record is counted, a block PMU record's counter may be None."""
    path = tmp_path / NAME
    data = hwts_text([(30109, 535, 100, 200), (3, 519, 300, 400)]).decode()
    blocks = "Start of block 4    0        1         519_3    350             519\n" \
             "Block PMU      5    0        1         519_3    None            519\n"
    data = data.replace("535_30109", "30109    ").replace("519_3   ", "519_65539")
    path.write_text(data.rstrip("\n") + "\n" + blocks)
    assert ingest_file(warehouse_db, path).status == "ok"
    assert warehouse_db.execute("SELECT stream_id, task_id FROM mindspore_hwts_task").fetchall() == [
        (535, 30109), (519, 65539)]
    detail = warehouse_db.execute("SELECT detail FROM source").fetchone()[0]
    assert '"records": {"block_pmu": 1, "block_start": 1, "task_end": 2, "task_start": 2}' in detail


@pytest.mark.parametrize(("change", "reason"), [
    (lambda data: data.replace(b"Task_ID", b"TaskId"), "line 2: expected 'Type cnt"),
    (lambda data: data.replace(b"537_30453", b"536_30453", 1), "line 4: task 536_30453 of stream 536 on stream 537"),
    (lambda data: data.replace(b"43806835000", b"None"), "line 4: a task record without its counter"),
    (lambda data: data.replace(b"43806835000", b"1000000000000000000"), "line 4: a counter past what ns"),
    (lambda data: data.replace(b"End of task    2", b"End of job     2"), "line 5: not an HWTS record of 7 fields"),
])
def test_a_hostile_dump_fails_naming_the_line(warehouse_db, tmp_path, change, reason):
    written = HwtsTextFactory(path=tmp_path / NAME)
    assert_fails_naming(warehouse_db, written.path, change(written.data), reason, "mindspore_hwts_task")
