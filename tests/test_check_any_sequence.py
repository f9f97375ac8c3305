"""``warehouse check`` passes after any sequence of ingests and kills, stage 1 or 2 of ``--answers-first``.

Each state a sequence can leave is reached by real ``warehouse`` processes (tests/kill_points.py:
the CLI SIGKILLs itself at a named point): the first answers only (``--answers-only``), stage 2
killed after its first file landed, stage 1 killed after its first rank was staged, and each of
them run again to the end. ``check`` must pass on every one, and the staged ranks must still be
said to be coming where they are. A state no ingest leaves (planted) must still fail the audit.
"""

from __future__ import annotations

import signal
import sqlite3
from pathlib import Path

import pytest
from factories.rank_db import RankDbFactory

from tests import kill_points
from warehouse.cli import cli

RANKS = 3
#: stage 1 killed once its first rank is staged; stage 2 once its first file landed
STAGE_1 = "warehouse.ingest.staged.first:_stage:1"
STAGE_2 = "warehouse.ingest:ingest_file:1"


@pytest.fixture
def cluster(tmp_path) -> Path:
    folder = tmp_path / "cluster"
    for rank in range(RANKS):
        RankDbFactory(path=folder / f"rank{rank}_ascend_pt" / f"ascend_pytorch_profiler_{rank}.db", rank_id=rank)
    return folder


def ingest(point: str, folder: Path, path: Path, *options: str):
    return kill_points.run(point, ["ingest", str(folder), "--db", str(path), "-j", "1", "-q", *options])


def check(runner, path: Path):
    return runner.invoke(cli, ["check", "--db", str(path)])


def stages(path: Path) -> list[tuple]:
    """Each source's status and stage, in id order."""
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT status, stage FROM source ORDER BY id").fetchall()


def test_check_passes_after_answers_only_then_after_the_rest(runner, cluster, tmp_path):
    path = tmp_path / "w.db"
    assert ingest("", cluster, path, "--answers-only").returncode == 0
    assert stages(path) == [("ok", "answers")] * RANKS
    result = check(runner, path)
    assert result.exit_code == 0, result.output
    assert "pass  source_final_state" in result.output

    assert ingest("", cluster, path, "--answers-first").returncode == 0
    assert stages(path) == [("ok", None)] * RANKS
    assert check(runner, path).exit_code == 0


@pytest.mark.parametrize("point,left", [
    (STAGE_2, [("ok", None)] + [("ok", "answers")] * (RANKS - 1)),  # stage 1 done, one file of stage 2
    (STAGE_1, [("ok", "answers")]),  # the first rank staged, the others not yet
])
def test_check_passes_after_a_kill_in_either_stage_and_after_the_rerun(runner, cluster, tmp_path, point, left):
    path = tmp_path / "w.db"
    killed = ingest(point, cluster, path, "--answers-first")
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert stages(path) == left
    result = check(runner, path)
    assert result.exit_code == 0, result.output

    again = ingest("", cluster, path, "--answers-first")
    assert again.returncode == 0, again.stderr
    assert stages(path) == [("ok", None)] * RANKS
    result = check(runner, path)
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("planted", [
    # an ok source that never finished: no time, nothing still to come
    "UPDATE source SET elapsed_ns = NULL WHERE id = 1",
    # a failed source that still holds rows (and says so)
    "UPDATE source SET status = 'failed', error = 'x: broken' WHERE id = 1",
    # a stage on a failed source: failed sources have nothing more to come
    "UPDATE source SET status = 'failed', error = 'x: broken', row_count = 0, stage = 'answers' WHERE id = 1",
    # a file held for stage 2 that has rows already
    "UPDATE source SET stage = 'pending', elapsed_ns = NULL WHERE id = 1",
    # a complete source with an error
    "UPDATE source SET error = 'x: broken' WHERE id = 1",
])
def test_a_state_no_ingest_leaves_fails_the_audit(runner, cluster, tmp_path, planted):
    path = tmp_path / "w.db"
    assert ingest("", cluster, path).returncode == 0
    assert check(runner, path).exit_code == 0
    with sqlite3.connect(path) as conn:
        conn.execute(planted)
    result = check(runner, path)
    assert result.exit_code == 1
    assert "FAIL  source_final_state: 1 violating row(s)" in result.output
