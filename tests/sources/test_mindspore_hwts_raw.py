"""hwts.log.data.45.dev.profiler_default_tag.{device}.slice_{n} (MindSpore's raw HWTS log), named by the
Framework files beside it, into ``kernel``."""

from __future__ import annotations

import struct

import pytest

from tests.factories.mindspore import HwtsRawFactory, TaskDescFactory, hwts_bytes, hwts_job, hwts_record
from tests.sources.mindspore_hostile import assert_fails_naming
from warehouse.ingest import ingest_file

KERNELS = ("SELECT source_row, origin, rank_id, device_id, task_id, stream_id, name, op_type, accelerator_core, ts, "
           "dur, block_dim, input_shapes, input_dtypes, input_formats, output_shapes, output_dtypes, op_class "
           "FROM kernel ORDER BY ts")


def test_named_tasks_are_kernels_with_their_operator_and_tensors(warehouse_db, tmp_path):
    files = hwts_job(tmp_path / "JOB1", device=3)
    result = ingest_file(warehouse_db, files["hwts"].path)
    assert (result.status, result.kind, result.rows) == ("ok", "mindspore_hwts_raw", 6)
    matmul = ("MatMul-op38", "MatMul", "AI_CORE")
    shapes = (32, "16000,39;39,1", "FLOAT32;FLOAT32", "DefaultFormat;DefaultFormat", "16000,1", "FLOAT32", "aic")
    # cycles of 100 MHz: 10 ns each; the Cast starts inside the first MatMul (another stream)
    assert warehouse_db.execute(KERNELS).fetchall() == [
        (1, "mindspore_hwts", 3, 3, 30109, 535, *matmul, 438068335780, 64220, *shapes),
        (2, "mindspore_hwts", 3, 3, 30453, 537, "Cast-op41", "Cast", "AI_CORE", 438068350000, 12340, 22,
         "16000,1", "FLOAT32", "DefaultFormat", "16000,1", "FLOAT16", "aic"),
        (5, "mindspore_hwts", 3, 3, 30109, 535, *matmul, 438068500000, 20000, *shapes),
    ]
    detail = warehouse_db.execute("SELECT rank_id, device_id, detail FROM source").fetchone()
    assert detail[:2] == (3, 3)
    assert '"tasks": 3, "named": 3, "records": {"task_end": 3, "task_start": 3}' in detail[2]


def test_tasks_the_framework_does_not_name_are_counted_not_kernels(warehouse_db, tmp_path):
    files = hwts_job(tmp_path)
    # a task of another id, a start without its end, and an end before any start
    extra = hwts_bytes([(60002, 513, 38753186165, 38753186166)]) + hwts_record(0, 0, 30453, 537, 43806900000)
    files["hwts"].path.write_bytes(hwts_record(0, 1, 30109, 535, 1) + files["hwts"].data + extra)
    result = ingest_file(warehouse_db, files["hwts"].path)
    assert (result.status, result.rows) == ("ok", 3 + 4)
    assert warehouse_db.execute(
        "SELECT t.task_id, t.stream_id, t.end_ns - t.start_ns, k.name FROM mindspore_hwts_task AS t "
        "LEFT JOIN kernel AS k USING (source_id, source_row) ORDER BY t.start_ns").fetchall() == [
        (60002, 513, 10, None), (30109, 535, 64220, "MatMul-op38"), (30453, 537, 12340, "Cast-op41"),
        (30109, 535, 20000, "MatMul-op38")]
    detail = warehouse_db.execute("SELECT detail FROM source").fetchone()[0]
    assert '"tasks": 4, "named": 3, "records": {"task_end": 5, "task_start": 5, "unpaired": 2}' in detail


def test_below_the_threshold_a_task_is_the_operator_s_on_its_stream_only(warehouse_db, tmp_path):
    files = hwts_job(tmp_path)
    TaskDescFactory(path=files["task"].path, rows=[("Default/Cast-op41", 1, 12, 537)])
    HwtsRawFactory(path=files["hwts"].path, rows=[(12, 537, 100, 150), (12, 538, 200, 260)])
    ingest_file(warehouse_db, files["hwts"].path)
    assert warehouse_db.execute("SELECT stream_id, name, dur FROM kernel").fetchall() == [(537, "Cast-op41", 500)]


def test_framework_files_in_the_data_folder_are_found_and_a_log_alone_names_nothing(warehouse_db, tmp_path):
    files = hwts_job(tmp_path / "a" / "data")
    files["hwts"].path.rename(tmp_path / "a" / files["hwts"].path.name)
    assert ingest_file(warehouse_db, tmp_path / "a" / files["hwts"].path.name).rows == 6
    alone = HwtsRawFactory(path=tmp_path / "b" / files["hwts"].path.name)
    result = ingest_file(warehouse_db, alone.path)
    assert (result.status, result.rows) == ("ok", 3)
    assert warehouse_db.execute(
        "SELECT count(*) FROM kernel WHERE source_id = ?", (result.source_id,)).fetchone() == (0,)


@pytest.mark.parametrize(("change", "reason"), [
    (lambda data: data[:-10], "byte 320: a record cut short (54 of 64 bytes)"),
    (lambda data: data[:72] + struct.pack("<Q", 2**63) + data[80:], "byte 72: a counter past what ns can hold"),
])
def test_a_hostile_log_fails_naming_the_byte_offset(warehouse_db, tmp_path, change, reason):
    files = hwts_job(tmp_path)
    assert_fails_naming(warehouse_db, files["hwts"].path, change(files["hwts"].data), reason, "kernel",
                        "mindspore_hwts_task")


def test_a_hostile_framework_file_fails_naming_its_line(warehouse_db, tmp_path):
    files = hwts_job(tmp_path)
    files["task"].path.write_bytes(files["task"].data + b"Default/Mul-op1 1 x 3\n")
    result = ingest_file(warehouse_db, files["hwts"].path)
    assert result.status == "failed"
    assert f"{files['task'].path}: line 3: expected '<op name> <block dim> <task id> <stream id>'" in result.error


def test_the_real_log_gives_the_framework_s_operators(warehouse_db, realdata):
    """Figures from the files read here independently, the way MindSpore's parsers do (hwts_log_parser:
    64-byte records; framework_parser: task id -> operator, the task id alone from 25000 on;
    optime_parser: a start record and the next end record of the same operator)."""
    folder = realdata / "mindinsight" / "JOB3"
    names = {}
    for line in (folder / "Framework.host.vm.task_desc_info.1.slice_0").read_text().splitlines():
        name, _block_dim, task_id, _stream_id = line.split(" ")
        names[int(task_id)] = name
    log = (folder / "hwts.log.data.45.dev.profiler_default_tag.1.slice_0").read_bytes()
    # (type, operator of the task id, counter) of every record
    records = [(log[at] & 7, names.get(struct.unpack_from("<H", log, at + 6)[0]),
                struct.unpack_from("<Q", log, at + 8)[0]) for at in range(0, len(log), 64)]
    named = [record for record in records if record[1] is not None and record[0] in (0, 1)]
    durations, at = [], 0
    while at + 1 < len(named):
        if (named[at][0], named[at + 1][0]) == (0, 1) and named[at][1] == named[at + 1][1]:
            durations.append(named[at + 1][2] - named[at][2])
            at += 2
        else:
            at += 1
    result = ingest_file(warehouse_db, folder / "hwts.log.data.45.dev.profiler_default_tag.1.slice_0")
    assert (result.status, result.rows) == ("ok", len(durations) + 31385)
    assert len(durations) == 2817
    assert warehouse_db.execute("SELECT count(*), sum(dur), min(rank_id), max(device_id) FROM kernel").fetchone() == (
        2817, 10 * sum(durations), 1, 1)
    # every operator type the graph file gives; the types and the classes they take
    assert warehouse_db.execute("SELECT count(*) FROM kernel WHERE op_type IS NULL").fetchone() == (0,)
    assert warehouse_db.execute(
        "SELECT op_type, count(*) FROM kernel GROUP BY op_type ORDER BY count(*) DESC LIMIT 3").fetchall() == [
        ("Mul", 452), ("TransData", 425), ("Slice", 224)]
    # every task of the log, named or not (a start and the next end of its stream and task id), on every stream
    streams = {struct.unpack_from("<I", log, at + 16)[0] for at in range(0, len(log), 64)}
    assert warehouse_db.execute("SELECT count(*), count(DISTINCT stream_id) FROM mindspore_hwts_task").fetchone() == (
        31385, len(streams))
    assert len(streams) == 59
    detail = warehouse_db.execute("SELECT detail FROM source").fetchone()[0]
    assert ('"tasks": 31385, "named": 2817, "records": {"task_end": 31385, "task_start": 31462, "unpaired": 77}'
            in detail)
