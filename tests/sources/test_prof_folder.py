"""CANN msprof PROF_* folders' timeline JSONs (issue 34): one run, one rank per device, on the epoch
clock its start_info gives; their device tasks are kernels, their iterations steps, their HCCL
operators communication operators with their tasks."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.factories import prof_folder as pf
from tests.factories.prof_folder import ProfTimelineFactory
from tests.factories.trace_json import TraceFileFactory
from warehouse import db
from warehouse.cli import cli
from warehouse.ingest import ingest_file, ingest_paths
from warehouse.model import folder_grammar as grammar
from warehouse.sources import detect_source, msprof_timeline
from warehouse.sources.msprof_timeline import clock

SAMPLE = "mindinsight/PROF_000001_20230818142704322_COJGGGCANRMICFBC"


def ingest_folder(conn, timeline):
    for path in sorted(timeline.iterdir()):
        result = ingest_file(conn, path)
        assert result.status == "ok", result.error


def test_timeline_names(tmp_path):
    written = ProfTimelineFactory(root=tmp_path)
    assert grammar.timeline_file(written.timeline / "task_time_0_2_1.json") == "task_time"
    assert grammar.timeline_file(written.timeline / "msprof_0_2_10.json") == "msprof"
    assert grammar.timeline_file(written.timeline / "step_trace_0_2_1.json") == "step_trace"
    assert grammar.timeline_file(written.timeline / "trace_view.json") is None
    assert grammar.timeline_file(tmp_path / "device_0" / "timeline" / "msprof_0_2_1.json") is None  # no PROF_*


def test_the_timeline_files_are_routed_to_their_source_and_the_same_trace_elsewhere_is_not(tmp_path):
    written = ProfTimelineFactory(root=tmp_path)
    assert {detect_source(path) for path in written.timeline.iterdir()} == {msprof_timeline}
    elsewhere = tmp_path / "msprof_0_2_1.json"
    shutil.copy(written.timeline / "msprof_0_2_1.json", elsewhere)
    assert detect_source(elsewhere).KIND == "trace_json"
    not_a_trace = written.timeline / "msprof_0_2_9.json"
    not_a_trace.write_text('{"a": 1}', encoding="utf-8")
    assert not msprof_timeline.detect(not_a_trace)


def test_the_clock_is_the_start_info_s(tmp_path):
    written = ProfTimelineFactory(root=tmp_path)
    assert clock.epoch_offset_ns(written.device) == 1_692_340_024_324_979_000 - 56_579_931_060_630
    (written.device / "start_info.0").write_text('{"collectionTimeBegin":"soon"}', encoding="utf-8")
    assert clock.epoch_offset_ns(written.device) is None


def test_a_prof_folder_is_one_rank_with_kernels_steps_and_hccl(warehouse_db, tmp_path):
    written = ProfTimelineFactory(root=tmp_path, iterations=2)
    ingest_folder(warehouse_db, written.timeline)
    conn = warehouse_db
    assert conn.execute("SELECT DISTINCT kind, rank_id FROM source WHERE kind IS NOT NULL").fetchall() == [
        ("msprof_timeline", 0)]
    assert conn.execute("SELECT count(*), min(profiler) FROM run").fetchone() == (1, "msprof")
    # kernels: the AI_CORE and AI_CPU tasks of each msprof_*.json; HCCL's NOTIFY_WAIT on its stream is not one
    first = round(pf.ITERATION_US * 1000) + pf.EPOCH_OFFSET_NS
    assert conn.execute(
        "SELECT k.name, k.task_type, k.op_class, k.stream_id, k.task_id, k.ts, k.dur, k.rank_id, k.device_id "
        "FROM kernel AS k JOIN source AS s ON s.id = k.source_id "
        "WHERE s.path LIKE '%msprof_0_2_1.json' ORDER BY k.ts").fetchall() == [
        ("Default/network/Cast-op239", "AI_CORE", "aic", 2, 4, first + 10_000, 23_100, 0, 0),
        ("Default/network/DropoutGenMask-op232", "AI_CPU", "aicpu", 4, 2, first + 40_000, 621_830, 0, 0)]
    assert conn.execute("SELECT count(*) FROM kernel").fetchone() == (4,)
    # steps: step_trace_*.json's iterations, on the epoch clock
    assert conn.execute("SELECT step_id, start_ns, end_ns - start_ns FROM step ORDER BY step_id").fetchall() == [
        (i, round(pf.ITERATION_US * i * 1000) + pf.EPOCH_OFFSET_NS, 15_369_160) for i in (1, 2)]
    # the HCCL operator and its two tasks, per iteration
    assert conn.execute("SELECT name, op_type, ts, dur FROM communication_op ORDER BY ts LIMIT 1").fetchall() == [
        ("Default/AllReduce-op534_0", "AllReduce", first + 4_100_000, 9_000_500)]
    assert conn.execute(
        "SELECT t.task_type, t.plane_id, t.name, t.transport_type, t.dst_rank FROM communication_task AS t "
        "JOIN communication_op AS o ON o.source_id = t.source_id AND o.op_id = t.op_id "
        "WHERE o.ts = ? ORDER BY t.slice_id", (first + 4_100_000,)).fetchall() == [
        ("Notify_Wait", 0, "Default/AllReduce-op534_0", "LOCAL", 4294967295),
        ("Notify_Record", 0, "Default/AllReduce-op534_0", "LOCAL", 4294967295)]
    # the one-track files repeat msprof_*'s events: read, nothing added
    assert conn.execute(
        "SELECT row_count, json_extract(detail, '$.events_in') FROM source WHERE path LIKE '%task_time_0_2_2.json'"
    ).fetchall() == [(0, "msprof_0_2_2.json")]
    assert conn.execute("SELECT step_id, duration_ns > 0 FROM step_answer ORDER BY step_id").fetchall() == [
        (1, 1), (2, 1)]


def test_without_start_info_the_times_stay_on_the_device_clock(warehouse_db, tmp_path):
    written = ProfTimelineFactory(root=tmp_path, iterations=1, start_info=False)
    ingest_folder(warehouse_db, written.timeline)
    assert warehouse_db.execute("SELECT start_ns FROM step").fetchall() == [(round(pf.ITERATION_US * 1000),)]
    assert warehouse_db.execute(
        "SELECT DISTINCT json_extract(detail, '$.clock') FROM source WHERE kind = 'msprof_timeline'").fetchall() == [
        ("device monotonic (no start_info)",)]


def test_a_lone_one_track_file_gives_its_facts(warehouse_db, tmp_path):
    """Without the msprof_*.json of its numbers, task_time_* and hccl_* give their kernels and operators."""
    written = ProfTimelineFactory(root=tmp_path, iterations=1)
    (written.timeline / "msprof_0_2_1.json").unlink()
    ingest_folder(warehouse_db, written.timeline)
    assert warehouse_db.execute("SELECT count(*), count(DISTINCT source_id) FROM kernel").fetchone() == (3, 1)
    assert warehouse_db.execute("SELECT count(*) FROM communication_op").fetchone() == (1,)


def test_an_iteration_without_its_number_fails_the_file(warehouse_db, tmp_path):
    written = ProfTimelineFactory(root=tmp_path, iterations=1)
    steps = written.timeline / "step_trace_0_2_1.json"
    event = pf.iteration(1)
    del event["args"]["Iteration ID"]
    pf.write(steps, [event])
    result = ingest_file(warehouse_db, steps)
    assert result.status == "failed" and "event 0: an iteration without a whole 'Iteration ID'" in result.error


@pytest.fixture(scope="module")
def sample(realdata, tmp_path_factory):
    """The real PROF folder (copied: an ingest never writes beside its inputs, but the copy is ours)
    ingested once: (warehouse path, its step_trace JSON)."""
    prof = tmp_path_factory.mktemp("prof") / SAMPLE.split("/")[1]
    shutil.copytree(realdata / SAMPLE, prof)
    path = prof.parent / "warehouse.db"
    conn = db.connect(path)
    ingest_paths(conn, [prof], jobs=1)
    conn.close()
    return path, prof / "device_0" / "timeline" / "step_trace_0_2_1.json"


def test_the_real_prof_folder_has_kernels_steps_and_hccl(sample):
    path, step_trace = sample
    conn = db.connect(path)
    iterations = {event["args"]["Iteration ID"]: round(event["args"]["Iteration Time(ns)"])
                  for event in json.loads(step_trace.read_text()) if event.get("cat") == "Iteration Time"}
    assert len(iterations) == 10
    assert dict(conn.execute("SELECT step_id, end_ns - start_ns FROM step")) == iterations
    assert dict(conn.execute("SELECT op_class, count(*) FROM kernel GROUP BY op_class")) == {
        "aic": 1370, "aicpu": 20, "other": 90}
    assert conn.execute("SELECT count(*), count(DISTINCT op_type) FROM communication_op").fetchone() == (10, 1)
    assert conn.execute("SELECT count(*) FROM communication_task WHERE op_id IS NULL").fetchone() == (0,)
    # the u64 'no notify' id (2^64 - 1, a float to JSON) as the db export writes it: every id an integer
    assert conn.execute("SELECT count(*), sum(typeof(notify_id) = 'integer') FROM communication_task "
                        "WHERE notify_id = 9223372036854775807").fetchone() == (290, 290)
    assert conn.execute("SELECT count(*) FROM communication_task WHERE typeof(notify_id) <> 'integer'").fetchone() == (0,)
    assert conn.execute("SELECT count(DISTINCT run_id), count(DISTINCT rank_id) FROM source "
                        "WHERE kind = 'msprof_timeline'").fetchone() == (1, 1)
    conn.close()


def test_the_real_prof_folder_passes_check(sample, runner):
    result = runner.invoke(cli, ["check", "--db", str(sample[0])])
    assert result.exit_code == 0, result.output


def test_check_reconciles_the_steps_with_the_timeline_and_the_derived_lengths(sample, runner, tmp_path):
    """audits/msprof_steps_agree: on the real folder every step agrees (the derived lengths end
    within 0.1% of the iteration time); a step moved by 2 us, and one stretched by 5%, are named."""
    copy = tmp_path / "w.db"
    shutil.copy(sample[0], copy)
    conn = db.connect(copy)
    derived = dict(conn.execute("SELECT step_id, preparing_ns + stage_ns + bubble_ns FROM step_breakdown"))
    iterations = dict(conn.execute("SELECT step_id, end_ns - start_ns FROM step"))
    assert len(derived) == 10 and all(abs(derived[n] - iterations[n]) < 0.001 * iterations[n] for n in derived)
    conn.execute("UPDATE step SET start_ns = start_ns + 2000, end_ns = end_ns + 2000 WHERE step_id = 3")
    conn.execute("UPDATE step SET end_ns = start_ns + (end_ns - start_ns) * 105 / 100 WHERE step_id = 7")
    conn.commit()
    conn.close()
    result = runner.invoke(cli, ["check", "--db", str(copy), "--json"])
    assert result.exit_code == 1
    audit = next(a for a in json.loads(result.output)["audits"] if a["name"] == "msprof_steps_agree")
    assert [row["step_id"] for row in audit["examples"]] == [7, 3]  # the largest disagreement first
