"""A Spark ingest SIGKILLed at any point, then run again, ends with the dataset of an uninterrupted run.

``warehouse ingest --engine spark`` runs as a real process (its own JVM, local[1]) that kills
itself with SIGKILL when it enters a named step of the driver (tests/kill_points.py), so the
kill point is exact, not a timing. The points: the folder just claimed, no group ingested yet;
every group's Parquet written but not committed; the groups committed, the run-wide views not
yet computed. A re-run (the CLI's ingest again, in the test's Spark session) must then end with
the same relations and rows as one uninterrupted run, and a further re-run must land nothing
new and keep them. The uninterrupted run's rows are those of ``warehouse export`` of the local
ingest of the same files: what an uninterrupted Spark ingest holds (tests/scale/test_spark_ingest.py
asserts it row for row), at the cost of a local ingest instead of a Spark one.
"""

from __future__ import annotations

import json
import signal
from pathlib import Path

import pytest

from tests import kill_points
from tests.scale.spark_jvm import JVM_OPTIONS
from tests.scale.test_spark_ingest import rank_folder, relation_rows
from warehouse import db, export
from warehouse.engines import spark_ingest
from warehouse.ingest import ingest_paths

pytestmark = pytest.mark.slow

#: driver step (module:function:calls completed) -> what the dataset holds when it is killed there
KILL_POINTS = {
    "warehouse.engines.spark_ingest:_ingest_groups:0": "claimed, no group ingested",
    "warehouse.engines.spark_ingest:_write_catalog:0": "every group's files written, none committed",
    "warehouse.engines.spark_views:compute:0": "the groups committed, no run-wide view",
}
#: the JVM's heap and reservations, within the child's address space, and the options of short jobs
SPARK_ENV = {"JAVA_TOOL_OPTIONS": f"-Xmx768m -XX:MaxMetaspaceSize=256m -XX:ReservedCodeCacheSize=128m {JVM_OPTIONS}",
             "SPARK_MASTER": "local[1]"}


def ingest(point: str, run: Path, out: Path):
    """``warehouse ingest RUN --engine spark --out OUT`` as a child, killed at ``point`` (``""``: not)."""
    return kill_points.run(point, ["ingest", str(run), "--engine", "spark", "--out", str(out)], SPARK_ENV)


def dataset(out: Path) -> dict[str, list[str]]:
    """Every relation of the dataset's manifest: its rows (clock columns left out), sorted."""
    tables = json.loads((out / export.MANIFEST).read_text(encoding="utf-8"))["tables"]
    return {name: relation_rows(out, entry) for name, entry in sorted(tables.items())}


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    """Three ranks of one run, a rank db each."""
    folder = tmp_path_factory.mktemp("killed") / "run"
    for rank in range(3):
        rank_folder(folder, rank)
    return folder


@pytest.fixture(scope="module")
def uninterrupted(run, tmp_path_factory) -> dict[str, list[str]]:
    """The rows of an uninterrupted ingest of ``run``: the local ingest's, exported."""
    folder = tmp_path_factory.mktemp("uninterrupted")
    conn = db.connect(folder / "warehouse.db")
    assert [r.status for r in ingest_paths(conn, [run])] == ["ok"] * 3
    conn.close()
    export.export_parquet(folder / "warehouse.db", folder / "export")
    return dataset(folder / "export")


def rerun(run: Path, out: Path, capsys) -> tuple[int, str]:
    """``warehouse ingest --engine spark`` again, in this process (the session's Spark): exit code, output."""
    capsys.readouterr()
    code = spark_ingest.main([run], out, master=None, run_name=None, quiet=False)
    return code, capsys.readouterr().out


@pytest.mark.parametrize("point", KILL_POINTS)
def test_a_rerun_after_a_kill_ends_as_an_uninterrupted_run(run, uninterrupted, tmp_path, capsys, point):
    out = tmp_path / "dataset"
    killed = ingest(point, run, out)
    assert killed.returncode == -signal.SIGKILL, killed.stderr

    code, said = rerun(run, out, capsys)
    assert code == 0, said
    mine = dataset(out)
    assert sorted(mine) == sorted(uninterrupted)  # every table and view, the 19 run-wide views too
    for name, rows in uninterrupted.items():
        assert mine[name] == rows, name
    assert not (out / spark_ingest.PARTS_FOLDER).exists()

    # and once more: nothing to land, the dataset unchanged
    code, said = rerun(run, out, capsys)
    assert code == 0 and "0 groups landed, 0 failed, 3 already in" in said
    assert dataset(out) == uninterrupted
