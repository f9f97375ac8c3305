"""training_trace.46.dev.profiler_default_tag.{device}.slice_{n} (MindSpore's raw training trace) into
``step``, ``mindspore_step_trace`` and ``mindspore_step_stream``, and its precedence over the intermediate."""

from __future__ import annotations

import struct

import pytest

from tests.factories.mindspore import HwtsRawFactory, StepTraceRawFactory, TrainingTraceFactory, hwts_job, trace_record
from tests.sources.mindspore_hostile import assert_fails_naming
from warehouse import audits
from warehouse.ingest import ingest_file, ingest_paths

NAME = "training_trace.46.dev.profiler_default_tag.3.slice_0"
STEPS = ("SELECT step_id, start_ns, end_ns, total_ns, fp_point_ns, bp_point_ns, iteration_interval_ns, fp_and_bp_ns, "
         "tail_ns FROM mindspore_step_trace WHERE source_id = ? ORDER BY step_id")


def test_the_trace_gives_the_steps_and_phases_mindspore_s_intermediate_gives(warehouse_db, tmp_path):
    raw = ingest_file(warehouse_db, TrainingTraceFactory(path=tmp_path / "JOB" / "data" / NAME).path)
    intermediate = ingest_file(warehouse_db, StepTraceRawFactory(
        path=tmp_path / "profiler" / "step_trace_raw_3_detail_time.csv").path)
    assert (raw.status, raw.kind, raw.rows) == ("ok", "mindspore_training_trace_raw", 3 * 2 + 5)
    assert warehouse_db.execute(STEPS, (raw.source_id,)).fetchall() == warehouse_db.execute(
        STEPS, (intermediate.source_id,)).fetchall()
    # cycles of 100 MHz: 10 ns each; step 1 starts at its forward pass
    assert warehouse_db.execute(STEPS, (raw.source_id,)).fetchone() == (
        1, 450000300810, 450040331280, 40030470, 450000300810, 450017330250, 0, 17029440, 23001030)
    # the reduce operators by stream, named as MindSpore's parser of the raw file names them
    assert warehouse_db.execute(
        "SELECT step_id, stream_id, name, duration_ns FROM mindspore_step_stream WHERE source_id = ? "
        "ORDER BY step_id, stream_id", (raw.source_id,)).fetchall() == [
        (1, 48, "stream_48_parallel_0", 175960), (1, 49, "stream_49_parallel_0", 2981020),
        (2, 48, "stream_48_parallel_0", 175960), (2, 49, "stream_49_parallel_0", 2981020),
        (3, 48, "stream_48_parallel_0", 175960)]
    assert warehouse_db.execute("SELECT rank_id, device_id FROM source WHERE id = ?", (raw.source_id,)).fetchone() == (
        3, 3)


def test_the_raw_trace_answers_the_steps_of_its_run_before_the_intermediate(warehouse_db, tmp_path):
    raw = ingest_file(warehouse_db, TrainingTraceFactory(path=tmp_path / NAME).path)
    intermediate = ingest_file(warehouse_db, StepTraceRawFactory(
        path=tmp_path / "step_trace_raw_3_detail_time.csv").path)
    assert warehouse_db.execute("SELECT count(DISTINCT run_id) FROM source").fetchone() == (1,)
    assert warehouse_db.execute("SELECT source_id FROM step_source").fetchall() == [(raw.source_id,)]
    assert warehouse_db.execute(
        "SELECT count(*) FROM step_window WHERE source_id = ?", (raw.source_id,)).fetchone() == (3,)
    assert intermediate.status == "ok"


def test_a_step_without_its_forward_pass_keeps_its_number_and_is_left_out(warehouse_db, tmp_path):
    written = TrainingTraceFactory(path=tmp_path / NAME)
    records = [written.data[at:at + 20] for at in range(0, len(written.data), 20)]
    # step 2's forward pass record (the 9th: step 1 wrote 8) gone
    assert struct.unpack("<Q", records[9][:8])[0] == 1
    written.path.write_bytes(b"".join(records[:9] + records[10:]) + trace_record(10010, 1, 519, 45030000000))
    result = ingest_file(warehouse_db, written.path)
    # step 2 is not stored; step 3 keeps its number and starts where step 2 ended
    assert [step[:2] for step in warehouse_db.execute(STEPS, (result.source_id,)).fetchall()] == [
        (1, 450000300810), (3, 450170856580)]
    detail = warehouse_db.execute("SELECT detail FROM source").fetchone()[0]
    assert '"left_out": {"without_forward_or_backward": 1}' in detail


@pytest.mark.parametrize(("change", "reason"), [
    (lambda data: data[:-7], "byte 420: a record cut short (13 of 20 bytes)"),
    (lambda data: data[:32] + struct.pack("<Q", 2**63) + data[40:], "byte 32: a counter past what ns can hold"),
])
def test_a_hostile_trace_fails_naming_the_byte_offset(warehouse_db, tmp_path, change, reason):
    written = TrainingTraceFactory(path=tmp_path / NAME)
    assert_fails_naming(warehouse_db, written.path, change(written.data), reason, "step", "mindspore_step_trace")


def test_the_real_trace_gives_its_steps(warehouse_db, realdata):
    """Figures from the file read here independently (20-byte records: tag, task, stream, counter)."""
    path = realdata / "mindinsight" / "JOB3" / "data" / "training_trace.46.dev.profiler_default_tag.1.slice_0"
    data = path.read_bytes()
    records = [struct.unpack_from("<QHHQ", data, at) for at in range(0, len(data), 20)]
    ends = [cycle for tag, _, _, cycle in records if tag == 255]
    fps = [cycle for tag, _, _, cycle in records if tag == 1]
    bps = [cycle for tag, _, _, cycle in records if tag == 2]
    result = ingest_file(warehouse_db, path)
    assert result.status == "ok"
    steps = warehouse_db.execute(STEPS, (result.source_id,)).fetchall()
    assert len(steps) == len(ends) == 322
    assert [step[2] for step in steps] == [10 * end for end in ends]
    assert [step[4:6] for step in steps] == [(10 * fp, 10 * bp) for fp, bp in zip(fps, bps)]
    # phases add up to the step; step 2 starts where step 1 ended
    assert all(interval + fp_and_bp + tail == total for *_, total, _, _, interval, fp_and_bp, tail in
               [(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8]) for s in steps])
    assert steps[1][1] == steps[0][2] and steps[0][6] == 0
    assert warehouse_db.execute("SELECT count(*), min(rank_id) FROM step").fetchone() == (322, 1)


def test_the_check_reconciles_the_intermediate_with_the_raw_trace(warehouse_db, tmp_path):
    ingest_file(warehouse_db, TrainingTraceFactory(path=tmp_path / NAME).path)
    written = StepTraceRawFactory(path=tmp_path / "step_trace_raw_3_detail_time.csv")
    audit = {audit.name: audit for audit in audits.load_audits()}["mindspore_steps_agree"]
    ingest_file(warehouse_db, written.path)
    assert audits.run_audit(warehouse_db, audit).violations == 0
    # the intermediate's step 2 ends 5 us later than the trace says
    written.path.write_bytes(written.data.replace(b",45017085658,", b",45017086158,", 1))
    result = ingest_file(warehouse_db, written.path, force=True)
    assert result.status == "ok"
    assert [row[:3] + row[5:6] for row in audits.run_audit(warehouse_db, audit).examples] == [(1, 3, 2, 5000)]


def test_a_job_folder_is_one_run_of_one_device_its_kernels_in_its_steps(warehouse_db, tmp_path):
    """The HWTS log and Framework files in the job folder, the training trace in its data folder
    (as MindInsight's JOB3): one run, whose kernels fall in the trace's steps."""
    files = hwts_job(tmp_path / "JOB3", device=3)
    # the log's three tasks during step 2's forward and backward pass (45013070937 to 45014785314 cycles)
    HwtsRawFactory(path=files["hwts"].path, rows=[(30109, 535, 45013100000, 45013200000),
                                                  (30453, 537, 45013150000, 45013160000),
                                                  (30109, 535, 45014000000, 45014100000)])
    TrainingTraceFactory(path=tmp_path / "JOB3" / "data" / NAME)
    results = ingest_paths(warehouse_db, [tmp_path / "JOB3"])
    assert sorted((r.kind, r.status) for r in results) == [
        ("mindspore_framework_graph_desc", "ok"), ("mindspore_framework_task_desc", "ok"), ("mindspore_hwts_raw", "ok"),
        ("mindspore_training_trace_raw", "ok")]
    assert warehouse_db.execute("SELECT count(DISTINCT run_id) FROM source WHERE status = 'ok'").fetchone() == (1,)
    assert warehouse_db.execute("SELECT step_id, name FROM step_kernel ORDER BY ts").fetchall() == [
        (2, "MatMul-op38"), (2, "Cast-op41"), (2, "MatMul-op38")]
