"""MindSpore's current layout (``*_ascend_ms`` rank folders: torch_npu's exports under MindSpore's
names, MindSpore's profiler_info): a MindSpore run, its version from profiler_info's ms_version,
its kernels and steps those of the files."""

from __future__ import annotations

import sqlite3
from decimal import Decimal

from tests.factories import ascend_ms
from warehouse.ingest import ingest_paths
from warehouse.sources import profiler_info, profiler_metadata


def _run(conn) -> list[tuple]:
    return conn.execute("SELECT name, profiler, profiler_version FROM run").fetchall()


def test_a_text_export_is_a_mindspore_run_of_its_version(warehouse_db, tmp_path):
    written = ascend_ms.text_rank(tmp_path / "job", 1, version="2.6.0rc1")
    results = ingest_paths(warehouse_db, [tmp_path / "job"])
    assert {r.kind for r in results if r.status == "ok"} == {
        "profiler_info_json", "profiler_metadata_json", "kernel_details_csv", "step_trace_time_csv", "trace_json"}
    assert _run(warehouse_db) == [("job", "MindSpore", "2.6.0rc1")]
    # the kernels are kernel_details.csv's rows (name, start in ns), of the rank profiler_info names
    assert warehouse_db.execute("SELECT rank_id, name, ts FROM kernel_answer ORDER BY ts").fetchall() == [
        (1, row["Name"], int(Decimal(row["Start Time(us)"]) * 1000)) for row in written.kernels.rows]
    # the steps are step_trace_time.csv's (step 50: computing 8873.756 us)
    step = written.steps.rows[0]
    assert warehouse_db.execute("SELECT rank_id, step_id, computing_ns FROM step_trace_time").fetchall() == [
        (1, int(step["Step"]), 8873756)]
    assert warehouse_db.execute("SELECT value FROM run_metadata WHERE name = 'ms_version'").fetchall() == [
        ("2.6.0rc1",)]


def test_the_sidecar_names_the_run_whichever_file_went_in_first(warehouse_db, tmp_path):
    """The exports alone name no framework (torch_npu's kinds); profiler_info, ingested after them, does."""
    output = ascend_ms.text_rank(tmp_path / "job", 0).output
    ingest_paths(warehouse_db, [output / "kernel_details.csv"])
    assert _run(warehouse_db) == [("job", "torch_npu", None)]
    ingest_paths(warehouse_db, [output.parent / "profiler_info_0.json"])
    assert _run(warehouse_db) == [("job", "MindSpore", ascend_ms.VERSION)]


def test_a_db_export_is_a_mindspore_run_with_the_dbs_kernels(warehouse_db, tmp_path):
    written = ascend_ms.db_rank(tmp_path / "job", 2)
    results = ingest_paths(warehouse_db, [tmp_path / "job"])
    assert {(r.kind, r.status) for r in results} >= {("rank_db", "ok"), ("profiler_info_json", "ok")}
    assert _run(warehouse_db) == [("job", "MindSpore", ascend_ms.VERSION)]
    with sqlite3.connect(written.path) as source:
        computed = source.execute(
            "SELECT 2, s.value, t.startNs, t.endNs - t.startNs FROM TASK AS t "
            "JOIN COMPUTE_TASK_INFO AS c ON c.globalTaskId = t.globalTaskId JOIN STRING_IDS AS s ON s.id = c.name "
            "ORDER BY t.startNs").fetchall()
    # every compute task of the db is a kernel of rank 2 (its file name's rank), its name, start and duration
    assert computed and warehouse_db.execute(
        "SELECT rank_id, name, ts, dur FROM kernel_answer ORDER BY ts").fetchall() == computed


def test_mindspores_profiler_info_is_detected_as_profiler_info(tmp_path):
    folder = ascend_ms.rank_folder(tmp_path, 4)
    path = folder / "profiler_info_4.json"
    assert profiler_info.detect(path) and not profiler_metadata.detect(path)
    assert profiler_metadata.detect(folder / "profiler_metadata.json")
