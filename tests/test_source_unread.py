"""Nothing of an input dropped in silence (issue 34): each table of an SQLite input that no statement of
its source reads is a ``source_unread`` row with its reason, and ``warehouse info`` and the query
``unread_inputs`` list those and the files no source reads."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from tests.factories.cluster_outputs import ClusterAnalysisDbFactory
from tests.factories.rank_db import RankDbFactory
from warehouse.cli import cli
from warehouse.ingest import ingest_file, ingest_paths
from warehouse.sources.kit.sqlite_input import EMPTY, NOT_HELD, statement_reads, unread_reasons


def unread(conn, source_id):
    return conn.execute("SELECT item, reason FROM source_unread WHERE source_id = ? ORDER BY item",
                        (source_id,)).fetchall()


def ingest_ok(conn, path):
    result = ingest_file(conn, Path(path))
    assert result.status == "ok", result.error
    return result.source_id


def file_tables(path: Path) -> set[str]:
    with closing(sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)) as probe:
        return {name for (name,) in probe.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def test_statement_reads_are_the_input_views_named():
    # callchain_id holds "in_id" inside a word: not a view
    assert statement_reads(["SELECT a.callchain_id FROM in_TASK AS a JOIN temp.in_STRING_IDS", "in_NIC"]) == {
        "TASK", "STRING_IDS", "NIC"}


@pytest.fixture
def run_folder(tmp_path):
    """A rank db with a table no reader knows, a known unread one and an empty one; beside it a note."""
    folder = tmp_path / "run" / "rank0_ascend_pt" / "ASCEND_PROFILER_OUTPUT"
    rank0 = RankDbFactory(path=folder / "ascend_pytorch_profiler_0.db", rank_id=0)
    with closing(sqlite3.connect(rank0.path)) as conn, conn:
        conn.execute("CREATE TABLE DDR (deviceId INTEGER, timestampNs INTEGER, read NUMERIC, write NUMERIC)")
        conn.execute("INSERT INTO DDR VALUES (0, 1, 2.5, 3.5)")
        conn.execute("CREATE TABLE QOS (deviceId INTEGER, eventName NUMERIC, bandwidth NUMERIC)")
    (folder / "notes.txt").write_text("not a profiler output\n")
    return tmp_path / "run"


def test_rank_db_tables_not_read_and_files_not_read(warehouse_db, warehouse_path, run_folder, runner):
    results = {r.path.name: r for r in ingest_paths(warehouse_db, [run_folder])}
    assert results["notes.txt"].status == "skipped"
    rank_db = results["ascend_pytorch_profiler_0.db"].source_id
    assert unread(warehouse_db, rank_db) == [
        ("DDR", unread_reasons()["DDR"]), ("QOS", EMPTY), ("VENDOR_EXTRA_METRICS", NOT_HELD)]
    detail = json.loads(warehouse_db.execute("SELECT detail FROM source WHERE id = ?", (rank_db,)).fetchone()[0])
    assert detail["tables_ignored"] == ["DDR", "QOS", "VENDOR_EXTRA_METRICS"]

    listed = runner.invoke(cli, ["query", "unread_inputs", "--db", str(warehouse_path), "--format", "json"])
    assert listed.exit_code == 0, listed.output
    note = str(run_folder / "rank0_ascend_pt" / "ASCEND_PROFILER_OUTPUT" / "notes.txt")
    assert [(r["rank_id"], Path(r["path"]).name, r["item"]) for r in json.loads(listed.output)] == [
        (0, "ascend_pytorch_profiler_0.db", "DDR"), (0, "ascend_pytorch_profiler_0.db", "QOS"),
        (0, "ascend_pytorch_profiler_0.db", "VENDOR_EXTRA_METRICS"), (None, "notes.txt", None)]

    text = runner.invoke(cli, ["info", "--db", str(warehouse_path)])
    assert text.exit_code == 0, text.output
    assert "ascend_pytorch_profiler_0.db: 3 tables not read: DDR, QOS, VENDOR_EXTRA_METRICS\n" in text.output
    assert f": 1 file no source reads: {note}\n" in text.output
    facts = json.loads(runner.invoke(cli, ["info", "--db", str(warehouse_path), "--json"]).output)
    assert [(row["item"], row["reason"]) for row in facts["unread"]][-1] == (
        None, f"{note}: no source reads this kind of file")


@pytest.mark.parametrize(
    "sample,known_unread",
    (
        # opened in MindStudio Insight, which added tables of its own
        ("pytorch/db/level1/rank0_ascend_pt", {"connectionCats", "status_info", "sqlite_sequence"}),
        # torch_npu of October 2024 wrote DDR
        ("pytorch_2024-10-21/db/level0/rank0_ascend_pt", {"DDR"}),
    ),
)
def test_real_rank_db_every_table_read_or_listed(warehouse_db, realdata, sample, known_unread):
    path = next((realdata / "msinsight" / sample / "ASCEND_PROFILER_OUTPUT").glob("ascend_pytorch_profiler_*.db"))
    source_id = ingest_ok(warehouse_db, path)
    listed = dict(unread(warehouse_db, source_id))
    read = set(json.loads(warehouse_db.execute("SELECT detail FROM source WHERE id = ?",
                                               (source_id,)).fetchone()[0])["tables_read"])
    # every table of the file is read or listed, never both
    assert read | listed.keys() == file_tables(path) and not read & listed.keys()
    assert known_unread <= listed.keys()
    assert not {"TASK", "COMPUTE_TASK_INFO", "STRING_IDS", "PYTORCH_API", "RANK_DEVICE_MAP"} & listed.keys()
    assert {listed[name] for name in known_unread} == {unread_reasons()[name] for name in known_unread}


def test_analysis_and_cluster_dbs_list_their_unread_tables(warehouse_db, realdata, tmp_path):
    analysis = realdata / "msinsight/server_test_data/multiDevice/msprof_db/ASCEND_PROFILER_OUTPUT/analysis.dat"
    assert unread(warehouse_db, ingest_ok(warehouse_db, analysis)) == [
        ("sqlite_sequence", unread_reasons()["sqlite_sequence"]), ("status_info", unread_reasons()["status_info"])]
    cluster = tmp_path / "cluster_analysis_output" / "cluster_analysis.db"
    ClusterAnalysisDbFactory(path=cluster)
    # its communication groups are read (communication_group): nothing of the factory's file is left
    assert unread(warehouse_db, ingest_ok(warehouse_db, cluster)) == []


def test_a_prof_folder_s_metadata_files_are_sources_of_their_own(warehouse_db, realdata):
    """A PROF folder's start_info is the clock its timeline is read with, its info.json the rank: each is also
    a source of its own, as end_info and the done marks are, and no file of the folder is skipped."""
    device = realdata / "mindinsight" / "PROF_000001_20230818142704322_COJGGGCANRMICFBC" / "device_0"
    results = {r.path.name: r for r in ingest_paths(warehouse_db, [device.parent])}
    assert [name for name, r in results.items() if r.status != "ok"] == []
    assert {name: results[name].kind for name in results if not name.endswith(".json")} == {
        "end_info.0": "capture_info_json", "info.json.0": "capture_info_json", "start_info.0": "capture_info_json",
        "end_info.0.done": "done_mark", "info.json.0.done": "done_mark", "start_info.0.done": "done_mark"}
    # the timeline did use them: its steps are on the epoch clock start_info gives
    assert results["step_trace_0_2_1.json"].status == "ok"
    first_step = warehouse_db.execute("SELECT min(start_ns) FROM step").fetchone()[0]
    assert 1692340024324979000 <= first_step < 1692340082430569000  # within start_info .. end_info


def test_job3_s_files_are_all_sources_and_the_framework_files_still_name_the_hwts_log_s_kernels(warehouse_db, realdata):
    results = {r.path.name: r for r in ingest_paths(warehouse_db, [realdata / "mindinsight" / "JOB3"])}
    assert results["hwts.log.data.45.dev.profiler_default_tag.1.slice_0"].status == "ok"
    assert {name: (results[name].status, results[name].kind) for name in results if name.startswith("Framework")} == {
        "Framework.host.vm.task_desc_info.1.slice_0": ("ok", "mindspore_framework_task_desc"),
        "Framework.host.vm.graph_desc_info.1.slice_0": ("ok", "mindspore_framework_graph_desc"),
        "Framework.host.vm.point.1.slice_0": ("ok", "mindspore_framework_point")}
    assert [name for name, r in results.items() if r.status != "ok"] == []  # the TDT file and host_start.log too
    kernels = warehouse_db.execute("SELECT count(*) FROM kernel WHERE origin = 'mindspore_hwts'").fetchone()[0]
    assert kernels == 2817  # the tasks the task_desc_info names: read all the same
