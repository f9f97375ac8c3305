"""ingest --answers-first (issue 21 item 1): the four cluster answers after stage 1 equal their rows
after a full ingest, and after stage 2 the warehouse equals a plain full ingest table by table
(bench/compare_warehouses.py's comparison), on factory rank dbs, the demo cluster's rank dbs and the
real samples; a staged rank whose full ingest fails keeps its first answers and says why."""

from __future__ import annotations

import asyncio
import re
import shutil
import sqlite3
import sys
from pathlib import Path

import pytest
from datasette.app import Datasette
from factories.rank_db import RankDbFactory

from service import API_PREFIX, create_app
from warehouse import db, demo, ingest, queries, report
from warehouse.cli import cli
from warehouse.ingest.staged import first
from warehouse.synth.plan import UNITS_PER_STEP
from warehouse.synth.rank_db import write_rank

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from compare_warehouses import compare  # noqa: E402

ANSWERS = ("step_time", "communication_ops", "top_kernels", "slow_ranks")


def answers(conn: sqlite3.Connection) -> dict[str, list[tuple]]:
    return {name: queries.get(name).run(conn)[1] for name in ANSWERS}


def stage_one(conn: sqlite3.Connection, folder: Path, jobs: int = 1) -> list[ingest.FileResult]:
    files = list(ingest.discover([folder], exclude=ingest.warehouse_files(conn)))
    return first.stage_paths(conn, files, jobs=jobs)


def assert_staged_as_full(tmp_path: Path, folder: Path, jobs: int = 1) -> dict[str, list[tuple]]:
    """Full ingest into one warehouse, stage 1 then stage 2 into another: the same answers after
    stage 1, the same warehouse after stage 2. Returns the answers."""
    full_path, staged_path = tmp_path / "full.db", tmp_path / "staged.db"
    full = db.connect(full_path)
    assert all(r.status == "ok" for r in ingest.ingest_paths(full, [folder]))
    expected = answers(full)
    staged = db.connect(staged_path)
    results = stage_one(staged, folder, jobs)
    ranks = sum(r.status == "staged" and r.kind == "rank_db" for r in results)
    assert ranks == full.execute("SELECT count(*) FROM source WHERE kind = 'rank_db'").fetchone()[0] > 0
    # nothing of the rank dbs but their answers is in yet
    assert staged.execute("SELECT count(*) FROM kernel").fetchone() == (0,)
    assert staged.execute("SELECT count(*) FROM staged_kernel").fetchone()[0] > 0
    assert answers(staged) == expected
    assert all(r.status in ("ok", "unchanged") for r in ingest.ingest_paths(staged, [folder], jobs=jobs))
    assert answers(staged) == expected
    staged.close()
    full.close()
    lines = compare(full_path, staged_path)
    assert [line for line in lines if line.startswith("DIFF")] == []
    assert any(line.startswith("same staged_kernel: 0 rows") for line in lines)
    return expected


def test_factory_cluster_staged_as_full(tmp_path):
    folder = tmp_path / "cluster"
    for rank in range(3):
        RankDbFactory(path=folder / f"rank{rank}_ascend_pt" / "ASCEND_PROFILER_OUTPUT"
                      / f"ascend_pytorch_profiler_{rank}.db", rank_id=rank, tiling="host" if rank == 1 else None)
    got = assert_staged_as_full(tmp_path, folder)
    assert {row[1] for row in got["step_time"]} == {0, 1, 2}
    assert got["communication_ops"] and got["top_kernels"]
    assert {row[1] for row in got["slow_ranks"]} == {0, 1, 2}


def test_demo_rank_dbs_staged_as_full_in_workers(tmp_path):
    folder = tmp_path / "demo"
    for rank in range(4):
        write_rank(folder, rank, UNITS_PER_STEP)
    got = assert_staged_as_full(tmp_path, folder, jobs=2)
    assert {row[1] for row in got["step_time"]} == {0, 1, 2, 3}
    # the demo's rank 3 is the slow one
    assert [row[1] for row in got["slow_ranks"] if row[6]] and got["top_kernels"][0][3] > 0


@pytest.mark.parametrize("level", ["level0", "level1"])
def test_real_samples_staged_as_full(tmp_path, realdata, level):
    folder = tmp_path / level
    shutil.copytree(realdata / "msinsight" / "pytorch" / "db" / level, folder)
    got = assert_staged_as_full(tmp_path, folder)
    # analysis.db answers step_time (stage 1 ingests it whole), the staged rank dbs the rest
    assert {row[-1] for row in got["step_time"]} == {"analysis_db"}
    assert all(row[3] is not None for row in got["step_time"])  # the staged step markers
    assert {row[1] for row in got["communication_ops"]} == {0, 1}


def test_staged_rank_whose_full_ingest_fails_keeps_its_answers(tmp_path):
    folder = tmp_path / "cluster"
    paths = [folder / f"rank{rank}" / f"ascend_pytorch_profiler_{rank}.db" for rank in range(2)]
    for rank, path in enumerate(paths):
        RankDbFactory(path=path, rank_id=rank)
    conn = db.connect(tmp_path / "w.db")
    stage_one(conn, folder)
    before = answers(conn)
    with sqlite3.connect(paths[1]) as broken:  # an interval ending before it starts: the full ingest refuses it
        broken.execute("UPDATE STEP_TIME SET endNs = startNs - 1 WHERE rowid = 1")
    results = ingest.ingest_paths(conn, [folder])
    assert [r.status for r in results] == ["ok", "failed"]
    assert "STEP_TIME" in results[1].error and str(paths[1]) in results[1].error
    row = conn.execute("SELECT status, stage, error, rank_id FROM source WHERE path = ?", (str(paths[1]),)).fetchone()
    assert row[:2] == ("ok", "answers") and row[2] == results[1].error and row[3] == 1
    assert answers(conn) == before
    assert conn.execute("SELECT count(*) FROM staged_kernel WHERE rank_id = 0").fetchone() == (0,)


def test_cli_answers_first_and_info(tmp_path, runner):
    folder = tmp_path / "cluster"
    for rank in range(2):
        RankDbFactory(path=folder / f"rank{rank}_ascend_pt" / f"ascend_pytorch_profiler_{rank}.db", rank_id=rank)
    staged_path = tmp_path / "staged.db"
    conn = db.connect(staged_path)
    stage_one(conn, folder)
    conn.close()
    shown = runner.invoke(cli, ["info", "--db", str(staged_path)])
    assert shown.exit_code == 0, shown.output
    assert "0 ranks complete, 2 with first answers only" in shown.output
    client = create_app({"TESTING": True, "DATABASE": str(staged_path)}).test_client()
    served = client.get(f"{API_PREFIX}/sources").get_json()
    assert [(s["kind"], s["stage"], s["rank_id"]) for s in served["sources"]] == [("rank_db", "answers", 0),
                                                                                  ("rank_db", "answers", 1)]
    progress = client.get(f"{API_PREFIX}/queries/ingest_progress").get_json()["rows"]
    assert [(r["ranks_complete"], r["ranks_staged"], r["files_staged"], r["files_pending"], r["stage2_failed"])
            for r in progress] == [(0, 2, 2, 0, 0)]
    assert_pages_say_what_is_coming(staged_path, tmp_path, "0 ranks complete, 2 with first answers only")
    done = runner.invoke(cli, ["ingest", str(folder), "--db", str(staged_path), "--answers-first", "-j", "1"])
    assert done.exit_code == 0, done.output
    assert "first answers ready in" in done.output and "0 rank dbs staged" in done.output
    fresh = tmp_path / "fresh.db"
    done = runner.invoke(cli, ["ingest", str(folder), "--db", str(fresh), "--answers-first", "-j", "1"])
    assert done.exit_code == 0 and "2 rank dbs staged" in done.output
    shown = runner.invoke(cli, ["info", "--db", str(fresh)])
    assert "first answers only" not in shown.output
    served = create_app({"TESTING": True, "DATABASE": str(fresh)}).test_client().get(f"{API_PREFIX}/sources").get_json()
    assert {s["stage"] for s in served["sources"]} == {None}
    assert sqlite3.connect(fresh).execute("SELECT count(*) FROM source WHERE stage IS NOT NULL").fetchone() == (0,)
    assert_pages_say_what_is_coming(fresh, tmp_path, None)


def assert_pages_say_what_is_coming(path: Path, tmp_path: Path, coming: str | None) -> None:
    """The report's summary and a Datasette picture page say what is still coming (``None``: nothing is)."""
    conn = db.connect_readonly(path)
    report.write(conn, path.stem, tmp_path / "report.md")
    conn.close()
    summary = [line for line in (tmp_path / "report.md").read_text().splitlines() if "still coming" in line]
    # a mutable Datasette: it reads the write-ahead log the ingest left (`warehouse datasette` folds it in first)
    page = asyncio.run(Datasette([str(path)]).client.get(f"/-/warehouse/{path.stem}/steps"))
    assert page.status_code == 200
    banners = re.findall(r'<p class="wh-coming">(.*?)</p>', page.text)
    if coming is None:
        assert summary == [] and banners == []
    else:
        assert len(summary) == 1 and coming in summary[0]
        assert banners == [f"Still coming in run {_run_name(path)}: {coming} (2 inputs staged: their timeline, "
                           "flows, kernel rows and counters come with the second stage of the ingest)."]


def _run_name(path: Path) -> str:
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT name FROM run").fetchone()[0]


def test_demo_cluster_with_text_ranks_lands_as_a_plain_ingest(tmp_path):
    """The demo's text-export ranks and operator profile are held for stage 2; the db ranks answer
    at once, and the warehouse ends as a plain ingest of the whole folder."""
    folder = demo.write_inputs(tmp_path / "demo")
    full_path, staged_path = tmp_path / "full.db", tmp_path / "staged.db"
    full = db.connect(full_path)
    ingest.ingest_paths(full, [folder])
    staged = db.connect(staged_path)
    results = stage_one(staged, folder)
    by_kind = {(r.kind, r.status) for r in results}
    assert ("rank_db", "staged") in by_kind and ("kernel_details_csv", "pending") in by_kind
    assert not {r.status for r in results} - {"staged", "pending"}
    db_ranks = set(demo.DB_RANKS)
    for name in ("step_time", "communication_ops"):
        assert [row for row in answers(staged)[name] if row[1] in db_ranks] == \
            [row for row in answers(full)[name] if row[1] in db_ranks]
    # pending files hold their ids: an earlier failure of one is dropped, as a plain ingest drops it
    assert staged.execute("SELECT count(*) FROM source WHERE stage = 'pending'").fetchone()[0] == \
        sum(r.status == "pending" for r in results)
    ingest.ingest_paths(staged, [folder])
    assert answers(staged) == answers(full)
    staged.close()
    full.close()
    assert [line for line in compare(full_path, staged_path) if line.startswith("DIFF")] == []


def test_rank_beside_an_unreadable_analysis_db_derives_its_steps(tmp_path):
    """Beside an analysis.db stage 1 skips the derived breakdown; when that summary cannot be staged
    (here: not SQLite) the steps are derived after all, as the full ingest derives them."""
    folder = tmp_path / "cluster"
    output = folder / "rank0_ascend_pt" / "ASCEND_PROFILER_OUTPUT"
    RankDbFactory(path=output / "ascend_pytorch_profiler_0.db", rank_id=0)
    (output / "analysis.db").write_bytes(b"not an sqlite file at all")
    full = db.connect(tmp_path / "full.db")
    assert [r.status for r in ingest.ingest_paths(full, [folder])] == ["failed", "ok"]
    staged = db.connect(tmp_path / "staged.db")
    assert [(r.kind, r.status) for r in stage_one(staged, folder)] == [("analysis_db", "pending"),
                                                                        ("rank_db", "staged")]
    got = answers(staged)
    assert got == answers(full)
    # derived: step 1 with its kernel's figures, step 2 (no device activity in the factory's rank) unknown
    assert {row[-1] for row in got["step_time"]} == {"derived"}
    assert [(row[2], row[6] is not None) for row in got["step_time"]] == [(1, True), (2, False)]
