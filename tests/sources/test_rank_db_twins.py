"""One capture exported twice into one folder (a CANN msprof_N.db beside its older-named twin
report_N.db): read both, count once. The twins are told by their capture digest (rank_db._capture),
one answers every fact (source_twin, answer_source) and `warehouse info` says which; report_N.db's
API table is read as CANN_API."""

from __future__ import annotations

import json
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from tests.factories.rank_db import build_tables, write_db
from warehouse import queries
from warehouse.cli import cli
from warehouse.ingest import ingest_paths

TS0 = 1_736_410_576_000_000_000
#: the tables of a torch_npu rank db that msprof's own db lacks
FRAMEWORK_TABLES = ("PYTORCH_API", "CONNECTION_IDS", "PYTORCH_CALLCHAINS", "MEMORY_RECORD", "OP_MEMORY", "GC_RECORD")
REAL_RANK = "msinsight/pytorch/db/level0/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db"


def write_export(path: Path, *, older_names: bool = False, rank_in_map: bool = True, ts0: int = TS0) -> None:
    """msprof's db of one capture (TS0 unless told): as msprof_N.db writes it, or with ``older_names``
    as report_N.db (CANN_API named API)."""
    tables = build_tables(0, 0, ts0, rank_in_map, "blockDim")
    for name in FRAMEWORK_TABLES:
        tables.pop(name)
    if older_names:
        tables["API"] = tables.pop("CANN_API")
    write_db(path, tables)


def ingest_ok(conn, folder: Path) -> dict[str, int]:
    """Ingest ``folder``; every file ok; source ids by file name."""
    results = ingest_paths(conn, [folder])
    assert [r.error for r in results if r.status != "ok"] == []
    return {r.path.name: r.source_id for r in results}


def top_kernels(conn) -> list[tuple]:
    columns, rows = queries.get("top_kernels").run(conn, {})
    return [tuple(dict(zip(columns, row))[c] for c in ("name", "count", "total_ns")) for row in rows]


@pytest.mark.parametrize("rank_in_map", (True, False), ids=("rank 0", "rank unknown"))
def test_twins_count_once_and_the_first_answers(warehouse_db, tmp_path, rank_in_map):
    folder = tmp_path / "PROF_000001_x"
    write_export(folder / "msprof_0.db", rank_in_map=rank_in_map)
    write_export(folder / "report_0.db", older_names=True, rank_in_map=rank_in_map)
    ids = ingest_ok(warehouse_db, folder)
    # one kernel of 2.5 us, once (both files were read: twice before twins were told apart)
    assert top_kernels(warehouse_db) == [("MatMul_1", 1, 2500)]
    rank = 0 if rank_in_map else -1
    assert warehouse_db.execute("SELECT rank_id, source_id, answered_by FROM source_twin").fetchall() == [
        (rank, ids["report_0.db"], ids["msprof_0.db"])]
    assert set(warehouse_db.execute("SELECT source_id FROM answer_source").fetchall()) == {(ids["msprof_0.db"],)}
    # report_0.db's API is its CANN_API: both files' CANN calls are stored
    assert dict(warehouse_db.execute("SELECT source_id, count(*) FROM cann_api GROUP BY source_id").fetchall()) == {
        ids["msprof_0.db"]: 2, ids["report_0.db"]: 2}
    (detail,) = warehouse_db.execute("SELECT detail FROM source WHERE id = ?", (ids["report_0.db"],)).fetchone()
    detail = json.loads(detail)
    assert detail["tables_renamed"] == {"CANN_API": "API"}
    assert "CANN_API" in detail["tables_read"] and "API" not in detail["tables_ignored"]


def test_another_capture_of_a_held_rank_is_still_refused(warehouse_db, tmp_path):
    folder = tmp_path / "PROF_000001_x"
    write_export(folder / "msprof_0.db")
    write_export(folder / "report_0.db", older_names=True, ts0=TS0 + 1_000_000)
    results = {r.path.name: r for r in ingest_paths(warehouse_db, [folder])}
    assert results["msprof_0.db"].status == "ok"
    assert results["report_0.db"].status == "failed"
    assert "rank 0 is already in the warehouse" in results["report_0.db"].error
    assert warehouse_db.execute("SELECT count(*) FROM source_twin").fetchone() == (0,)


def test_info_says_which_input_answers_and_which_is_its_twin(runner, warehouse_path, tmp_path):
    folder = tmp_path / "PROF_000001_x"
    write_export(folder / "msprof_0.db", rank_in_map=False)
    write_export(folder / "report_0.db", older_names=True, rank_in_map=False)
    assert runner.invoke(cli, ["ingest", str(folder), "--db", str(warehouse_path), "-q", "-j", "1"]).exit_code == 0
    text = runner.invoke(cli, ["info", "--db", str(warehouse_path)]).output
    assert (f"run 1 rank -1: {folder / 'msprof_0.db'} (input 1) answers; {folder / 'report_0.db'} (input 2) "
            "is its twin, the same capture, and answers nothing") in text
    twins = json.loads(runner.invoke(cli, ["info", "--db", str(warehouse_path), "--json"]).output)["twins"]
    assert [(t["source_id"], t["answered_by"]) for t in twins] == [(2, 1)]


def test_real_rank_db_beside_its_renamed_twin_answers_as_alone(realdata, tmp_path, warehouse_db):
    # a real rank db, and beside it its copy with CANN_API under its older name: the same answers as the db alone
    alone = tmp_path / "alone" / "rank0_ascend_pt" / "ASCEND_PROFILER_OUTPUT"
    alone.mkdir(parents=True)
    shutil.copy(realdata / REAL_RANK, alone / "ascend_pytorch_profiler_0.db")
    twins = tmp_path / "twins" / "rank0_ascend_pt" / "ASCEND_PROFILER_OUTPUT"
    shutil.copytree(alone, twins)
    twin = twins / "report_0.db"
    shutil.copy(alone / "ascend_pytorch_profiler_0.db", twin)
    with closing(sqlite3.connect(twin)) as conn:
        conn.execute("ALTER TABLE CANN_API RENAME TO API")
    alone_id = ingest_ok(warehouse_db, tmp_path / "alone")["ascend_pytorch_profiler_0.db"]
    twin_id = ingest_ok(warehouse_db, tmp_path / "twins")["report_0.db"]
    runs = dict(warehouse_db.execute("SELECT id, run_id FROM source").fetchall())
    assert runs[alone_id] != runs[twin_id]
    answers = []
    for source_id in (alone_id, twin_id):
        columns, rows = queries.get("top_kernels").run(warehouse_db, {"run_id": runs[source_id], "limit": 1000})
        answers.append(sorted(tuple(dict(zip(columns, row))[c] for c in ("name", "count", "total_ns")) for row in rows))
    assert answers[1] == answers[0]
    with closing(sqlite3.connect(f"{twin.as_uri()}?mode=ro", uri=True)) as conn:
        kernels = conn.execute("SELECT count(*) FROM COMPUTE_TASK_INFO").fetchone()[0]
    assert sum(count for _, count, _ in answers[1]) == kernels == 187  # the real file's kernels, once
    assert warehouse_db.execute("SELECT source_id FROM source_twin").fetchall() == [(twin_id,)]
