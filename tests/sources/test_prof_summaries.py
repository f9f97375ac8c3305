"""A CANN msprof PROF_* folder's summary CSVs and msprof db (issue 34): op_summary_*.csv, task_time_*.csv,
step_trace_*.csv and msprof_*.db are read with its timeline JSONs as one run and one rank; one input
answers each fact (the db, then op_summary, then the timeline, then task_time for kernels; the timeline's
step_trace_*.json, then step_trace_*.csv for steps) and ``warehouse check`` reconciles the others with it
(audits/msprof_summaries_agree)."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.factories import prof_folder as pf
from tests.factories.prof_folder import ProfSummariesFactory
from warehouse import db
from warehouse.cli import cli
from warehouse.ingest import ingest_file, ingest_paths
from warehouse.sources import detect_source, msprof_step_trace, op_summary, rank_db, task_time

AUDIT = "msprof_summaries_agree"
#: iteration i's first kernel (Cast, 10 us into it) on the epoch clock, in ns
FIRST = round(pf.ITERATION_US * 1000) + pf.EPOCH_OFFSET_NS + 10_000
#: the compute kernels of each iteration: (name, class, duration ns)
COMPUTE = [("Default/network/Cast-op239", "aic", 23_100), ("Default/network/DropoutGenMask-op232", "aicpu", 621_830)]


def ingest(tmp_path, **kwargs):
    """The factory's PROF folder ingested into a new warehouse: (connection, what was written)."""
    written = ProfSummariesFactory(root=tmp_path / "in", **kwargs)
    conn = db.connect(tmp_path / "w.db")
    ingest_paths(conn, [written.timeline.prof], jobs=1)
    return conn, written


def audit(runner, path) -> dict:
    result = runner.invoke(cli, ["check", "--db", str(path), "--json"])
    return next(a for a in json.loads(result.output)["audits"] if a["name"] == AUDIT)


def test_the_summary_files_are_read_by_their_sources(tmp_path):
    written = ProfSummariesFactory(root=tmp_path)
    assert [detect_source(path) for path in (written.op_summary, written.task_time, written.step_trace,
                                             written.db)] == [op_summary, task_time, msprof_step_trace, rank_db]


def test_a_prof_folder_with_timeline_summaries_and_db_counts_each_kernel_once(tmp_path, runner):
    conn, written = ingest(tmp_path, iterations=2)
    # one run, one rank: every input of the folder (its device's start_info and info.json too)
    assert conn.execute("SELECT count(DISTINCT run_id), count(DISTINCT rank_id), count(*) FROM source "
                        "WHERE status = 'ok'").fetchone() == (1, 1, 13)
    assert dict(conn.execute("SELECT kind, count(*) FROM source WHERE status = 'ok' GROUP BY kind")) == {
        "rank_db": 1, "op_summary_csv": 1, "task_time_csv": 1, "msprof_step_trace_csv": 1, "msprof_timeline": 7,
        "capture_info_json": 2}
    # each kernel is held four times (db, op_summary, timeline, task_time) and answered once, by the db
    assert conn.execute("SELECT count(*) FROM kernel WHERE name LIKE '%Cast%'").fetchone() == (8,)
    assert conn.execute("SELECT origin, name, op_class, ts, dur FROM kernel_answer ORDER BY ts").fetchall() == [
        ("rank_db", name, op_class, FIRST + offset, dur)
        for i in (1, 2) for (name, op_class, dur), offset in zip(COMPUTE, (0, 30_000))
        for offset in [offset + round(pf.ITERATION_US * 1000) * (i - 1)]]
    assert conn.execute("SELECT sum(count), sum(total_ns) FROM kernel_total").fetchone() == (4, 2 * (23_100 + 621_830))
    # the steps are the timeline's step_trace_*.json's (the db holds none), not the CSV's again
    assert conn.execute("SELECT kind FROM step_source").fetchall() == [("msprof_timeline",)]
    assert conn.execute("SELECT step_id, start_ns, end_ns - start_ns FROM step_window ORDER BY step_id").fetchall() == [
        (i, round(pf.ITERATION_US * i * 1000) + pf.EPOCH_OFFSET_NS, 15_369_160) for i in (1, 2)]
    conn.close()
    assert audit(runner, tmp_path / "w.db")["passed"]


def test_without_the_db_op_summary_answers_and_its_hccl_operators_are_no_kernels(tmp_path):
    conn, _ = ingest(tmp_path, iterations=1, db=False)
    assert conn.execute("SELECT origin, name, task_type, op_class, ts, dur, block_dim, mix_block_dim, op_state "
                        "FROM kernel_answer ORDER BY ts").fetchall() == [
        ("op_summary_csv", COMPUTE[0][0], "AI_CORE", "aic", FIRST, 23_100, 1, 0, "static"),
        ("op_summary_csv", COMPUTE[1][0], "AI_CPU", "aicpu", FIRST + 30_000, 621_830, 1, 0, "static")]
    # op_summary's AllReduce row is stored as HCCL's, as the timeline's operator
    assert conn.execute("SELECT op_class, dur FROM kernel WHERE task_type = 'COMMUNICATION'").fetchall() == [
        ("communication", 9_000_500)]
    # task_time lists every device task, HCCL's notify wait too (classed communication); its end is no metric
    assert conn.execute("SELECT task_type, op_class, stream_id, task_id, metrics FROM kernel "
                        "WHERE origin = 'task_time_csv' ORDER BY ts").fetchall() == [
        ("AI_CORE", "aic", 2, 4, None), ("AI_CPU", "aicpu", 4, 2, None),
        ("NOTIFY_WAIT", "communication", pf.HCCL_STREAM, 2, None)]


def test_summaries_alone_answer_kernels_and_steps(tmp_path, runner):
    """Without the timeline and the db, op_summary answers the kernels and step_trace_*.csv the steps."""
    written = ProfSummariesFactory(root=tmp_path / "in", iterations=2, db=False)
    shutil.rmtree(written.timeline.timeline)
    conn = db.connect(tmp_path / "w.db")
    ingest_paths(conn, [written.timeline.prof], jobs=1)
    assert conn.execute("SELECT DISTINCT origin FROM kernel_answer").fetchall() == [("op_summary_csv",)]
    assert conn.execute("SELECT kind FROM step_source").fetchall() == [("msprof_step_trace_csv",)]
    assert conn.execute("SELECT step_id, start_ns, end_ns - start_ns FROM step_window ORDER BY step_id").fetchall() == [
        (i, round(pf.ITERATION_US * i * 1000) + pf.EPOCH_OFFSET_NS, 15_369_160) for i in (1, 2)]
    assert conn.execute("SELECT profiler FROM run").fetchall() == [("msprof",)]
    conn.close()
    assert audit(runner, tmp_path / "w.db")["passed"]


def test_check_names_a_summary_that_disagrees_with_the_answer(tmp_path, runner):
    """A step of step_trace_*.csv moved by 2 us, and op_summary's kernels 5% longer, are named; the
    timeline's kernels (one short) too; the answering db's are not compared with themselves."""
    conn, _ = ingest(tmp_path, iterations=2)
    conn.execute("UPDATE step SET start_ns = start_ns + 2000, end_ns = end_ns + 2000 WHERE step_id = 2 AND "
                 "source_id = (SELECT id FROM source WHERE kind = 'msprof_step_trace_csv')")
    conn.execute("UPDATE kernel SET dur = dur * 105 / 100 WHERE origin = 'op_summary_csv'")
    conn.execute("DELETE FROM kernel WHERE origin = 'msprof_timeline' AND name LIKE '%Cast%' AND ts = ?", (FIRST,))
    conn.commit()
    conn.close()
    found = audit(runner, tmp_path / "w.db")
    assert not found["passed"]
    assert [(row["fact"], row["kind"], row["step_id"], row["count"], row["answer_count"], row["total_ns"])
            for row in found["examples"]] == [
        ("kernel", "msprof_timeline", None, 3, 4, 23_100 + 2 * 621_830),  # a kernel missing first
        ("kernel", "op_summary_csv", None, 4, 4, 2 * (24_255 + 652_921)),
        ("step", "msprof_step_trace_csv", 2, 1, 1, 15_369_160)]


def test_a_step_trace_row_without_its_iteration_end_fails_the_file_naming_the_line(warehouse_db, tmp_path):
    written = ProfSummariesFactory(root=tmp_path, iterations=2, db=False)
    lines = written.step_trace.read_text().split("\n")
    fields = lines[2].split(",")
    fields[4] = "N/A"
    written.step_trace.write_text("\n".join([*lines[:2], ",".join(fields), *lines[3:]]))
    result = ingest_file(warehouse_db, written.step_trace)
    assert result.status == "failed"
    assert result.error == (f"{written.step_trace}: line 3: an iteration without its Iteration ID, "
                            "Iteration End(us) or Iteration Time(us)")


@pytest.mark.parametrize("kept", [1, 5, 11])
def test_a_truncated_step_trace_fails_naming_the_line(warehouse_db, tmp_path, kept):
    """The file cut inside its last record, after ``kept`` of its fields: one clear error naming the line."""
    written = ProfSummariesFactory(root=tmp_path, iterations=2, db=False)
    data = written.step_trace.read_bytes()
    last = data.rindex(b"\n", 0, len(data) - 1) + 1
    cut = last + len(b",".join(data[last:].split(b",")[:kept]))
    written.step_trace.write_bytes(data[:cut])
    result = ingest_file(warehouse_db, written.step_trace)
    assert (result.status, result.error) == (
        "failed", f"{written.step_trace}: line 3: {kept} fields for a header of 12")
