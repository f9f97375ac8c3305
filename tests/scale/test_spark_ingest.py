"""The Spark ingest (``warehouse ingest --engine spark``) in Spark local mode, against the local ingest.

The demo cluster and the real samples are ingested both ways: every relation of the Spark
dataset holds the rows of ``warehouse export`` of the SQLite ingest of the same files (ids
and strings included; only the clock's columns differ), and every named query answers on it
(DuckDB) as on that SQLite warehouse (the comparison of tests/scale/test_scale_engines.py), and so does
``warehouse compare`` (answers and report), on DuckDB and Spark. One run of rank dbs is ingested
twice, as a grown run is: first with a failing rank, recorded with the local ingest's reason while
the others land; then fixed and with a rank added, the second ingest retries it and adds the new
one without touching the files of the ranks it had, and ends equal to the local ingest of the same
two steps. One Spark session (conftest's) serves the module.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from factories.rank_db import RankDbFactory
from tests.scale.test_scale_engines import NAMES, assert_answers_as_on_sqlite, assert_same_answer
from warehouse import db, demo, export, ingest, queries
from warehouse.engines import spark_ingest
from warehouse.report import compare, compare_tables

pytestmark = pytest.mark.slow

REALDATA = Path("/work/shared/realdata")
#: (relation, column) -> the clock's values: when a row was written, how long it took
VOLATILE = {"ingested_at", "elapsed_ns", "created_at", "applied_at"}
#: named queries also run on the Spark engine over the Spark dataset (all run on DuckDB)
SPARK_QUERIES = ("step_time", "top_kernels", "runs")


def build_both(folder: Path, steps: list[list[Path]], spark, spark_steps: list[list[Path]] | None = None) -> dict:
    """The same inputs ingested locally (each step an ingest into one warehouse, then exported)
    and on Spark (each step of ``spark_steps``, else of ``steps``, an ingest into one dataset);
    ``files`` and ``manifests`` are the dataset's files and manifest after each Spark step."""
    conn = db.connect(folder / "warehouse.db")
    for paths in steps:
        results = ingest.ingest_paths(conn, paths)
        assert [r.error for r in results if r.status == "failed"] == []
    conn.close()
    export.export_parquet(folder / "warehouse.db", folder / "export")
    snapshots, manifests = [], []
    for paths in steps if spark_steps is None else spark_steps:
        manifests.append(spark_ingest.spark_ingest(paths, folder / "dataset", spark=spark))
        snapshots.append(files_of(folder / "dataset"))
    return {"db": folder / "warehouse.db", "export": folder / "export", "dataset": folder / "dataset",
            "files": snapshots, "manifests": manifests}


@pytest.fixture(scope="module")
def demo_run(tmp_path_factory, spark_session) -> dict:
    folder = tmp_path_factory.mktemp("spark-demo")
    return build_both(folder, [[demo.write_inputs(folder / "inputs")]], spark_session)


@pytest.fixture(scope="module")
def real_run(tmp_path_factory, spark_session) -> dict:
    folder = tmp_path_factory.mktemp("spark-real")
    shutil.copytree(REALDATA, folder / "inputs")
    return build_both(folder, [[folder / "inputs"]], spark_session)


def rank_folder(run: Path, rank: int, **options) -> Path:
    """One torch_npu rank folder of ``run`` holding its rank db (the byte-exact factory's)."""
    path = run / f"rank{rank}_ascend_pt" / "ASCEND_PROFILER_OUTPUT" / f"ascend_pytorch_profiler_{rank}.db"
    path.parent.mkdir(parents=True)
    RankDbFactory(path=path, rank_id=rank, **options)
    return path.parent.parent


@pytest.fixture(scope="module")
def grown_run(tmp_path_factory, spark_session) -> dict:
    """Ranks 0 and 2 and rank 1 cut in half ingested on Spark (rank 1 fails, the others land), then
    rank 1 fixed and rank 3 added and the run folder ingested again; locally, the good ranks 0 and 2,
    then the run folder. ``files`` and ``manifests``: the dataset's files and manifest after each
    Spark ingest; ``bad``: rank 1's cut file and its local ingest's reason."""
    folder = tmp_path_factory.mktemp("spark-grow")
    run = folder / "run"
    good = [rank_folder(run, 0), rank_folder(run, 2)]
    bad = rank_folder(run, 1)
    bad_file = next(bad.rglob("*.db"))
    bad_file.write_bytes(bad_file.read_bytes()[:bad_file.stat().st_size // 2])  # a rank db cut in half
    conn = db.connect(folder / "bad.db")
    [failed] = ingest.ingest_paths(conn, [bad])
    conn.close()
    first = spark_ingest.spark_ingest([run], folder / "dataset", spark=spark_session)
    snapshot = files_of(folder / "dataset")
    kernel_partitions = sorted(path.name for path in (folder / "dataset" / "kernel").iterdir())
    shutil.rmtree(bad)
    rank_folder(run, 1)
    rank_folder(run, 3)
    built = build_both(folder, [good, [run]], spark_session, spark_steps=[[run]])
    return {**built, "files": [snapshot, *built["files"]], "manifests": [first, *built["manifests"]],
            "bad": {"path": bad_file, "status": failed.status, "error": failed.error},
            "kernel_partitions": kernel_partitions}


def files_of(folder: Path) -> dict[str, tuple[int, bytes]]:
    """Every Parquet file of a dataset: its modification time and its bytes."""
    return {str(p.relative_to(folder)): (p.stat().st_mtime_ns, p.read_bytes()) for p in folder.rglob("*.parquet")}


def relation_rows(folder: Path, entry: dict) -> list[str]:
    """A relation's rows (partition key included, clock columns left out), sorted, as text."""
    import duckdb

    names = [c["name"] for c in entry["columns"] if c["name"] not in VOLATILE]
    glob = folder / entry["path"] / ("*/*.parquet" if entry["partitioned_by"] else "*.parquet")
    select = ", ".join(f'"{name}"' for name in names)
    with duckdb.connect() as conn:
        rows = conn.sql(f"SELECT {select} FROM read_parquet('{glob}', hive_partitioning = true)").fetchall()
    return sorted(map(repr, rows))


def assert_same_dataset(run: dict) -> None:
    theirs = json.loads((run["export"] / export.MANIFEST).read_text(encoding="utf-8"))["tables"]
    mine = json.loads((run["dataset"] / export.MANIFEST).read_text(encoding="utf-8"))["tables"]
    assert sorted(mine) == sorted(theirs)
    for name, entry in theirs.items():
        for key in ("kind", "path", "rows", "partitioned_by", "partitions", "columns"):
            assert mine[name][key] == entry[key], f"{name}.{key}"
        assert relation_rows(run["dataset"], mine[name]) == relation_rows(run["export"], entry), name


def test_demo_cluster_dataset_holds_the_exports_rows(demo_run):
    assert_same_dataset(demo_run)
    manifest = json.loads((demo_run["dataset"] / export.MANIFEST).read_text(encoding="utf-8"))
    groups = manifest[spark_ingest.STATE]["groups"]
    # the operator profile (a run of its own) and the six ranks of the cluster run, one group each
    assert [(g["rank"], len(g["files"]), g["status"]) for g in groups] == [
        (None, 1, "ok"), *[(rank, 4, "ok") for rank in range(4)], *[(rank, 4, "ok") for rank in (4, 5)]]
    # each rank's rows are in its own partition folder, one file per group that wrote them
    assert sorted(p.name for p in (demo_run["dataset"] / "kernel" / "rank_id=3").iterdir()) == ["part-g000004.parquet"]


def test_real_samples_dataset_holds_the_exports_rows(real_run):
    assert_same_dataset(real_run)


@pytest.fixture(scope="module")
def engines(demo_run, real_run):
    """DuckDB over each Spark dataset."""
    from warehouse.engines.duckdb import DuckDBEngine

    opened = {which: DuckDBEngine(run["dataset"]) for which, run in (("demo", demo_run), ("real", real_run))}
    yield opened
    for engine in opened.values():
        engine.close()


@pytest.mark.parametrize("which", ["demo", "real"])
@pytest.mark.parametrize("name", NAMES)
def test_every_named_query_answers_as_on_the_sqlite_ingest(engines, demo_run, real_run, which, name):
    run = {"demo": demo_run, "real": real_run}[which]
    assert_answers_as_on_sqlite(engines[which], run["db"], name)


@pytest.mark.parametrize("name", SPARK_QUERIES)
def test_spark_engine_answers_on_the_dataset(demo_run, spark_session, name):
    from warehouse.engines.spark import SparkEngine

    conn = sqlite3.connect(f"file:{demo_run['db']}?mode=ro", uri=True)
    expected = queries.get(name).run(conn, {})[1]
    conn.close()
    assert expected, f"{name} has no rows on the demo cluster"
    assert_same_answer(SparkEngine(demo_run["dataset"], spark=spark_session), name, {}, expected)


def test_a_failing_rank_is_recorded_and_the_others_land(grown_run):
    bad = grown_run["bad"]
    assert bad["status"] == "failed"
    assert bad["error"].startswith(f"{bad['path']}: sqlite_master: unreadable")
    manifest = grown_run["manifests"][0]
    groups = manifest[spark_ingest.STATE]["groups"]
    assert [(g["group"], g["rank"], g["status"]) for g in groups] == [(0, 0, "ok"), (1, 1, "failed"), (2, 2, "ok")]
    assert groups[1]["errors"] == [bad["error"]]  # file and place, as the local ingest says them
    assert grown_run["kernel_partitions"] == ["rank_id=0", "rank_id=2"]
    assert manifest["tables"]["source"]["partitions"] == ["rank_id=0", "rank_id=2"]


def test_a_second_ingest_retries_the_failed_rank_adds_one_and_rewrites_no_other(grown_run):
    assert_same_dataset(grown_run)  # as the local ingest of ranks 0 and 2, then of the run folder
    before, after = grown_run["files"]
    first_groups = {path: state for path, state in before.items() if "part-g00000" in path}
    assert first_groups and all(path.endswith(("g000000.parquet", "g000002.parquet")) for path in first_groups)
    for path, state in first_groups.items():
        assert after[path] == state, f"{path} was rewritten"
    assert (grown_run["dataset"] / "kernel" / "rank_id=1" / "part-g000003.parquet").exists()
    assert (grown_run["dataset"] / "kernel" / "rank_id=3" / "part-g000004.parquet").exists()
    manifest = json.loads((grown_run["dataset"] / export.MANIFEST).read_text(encoding="utf-8"))
    assert [(g["group"], g["rank"], g["status"]) for g in manifest[spark_ingest.STATE]["groups"]] == [
        (0, 0, "ok"), (2, 2, "ok"), (3, 1, "ok"), (4, 3, "ok")]
    assert manifest["tables"]["source"]["partitions"] == [f"rank_id={rank}" for rank in range(4)]


def test_a_folder_of_something_else_is_refused_in_one_line(tmp_path, spark_session):
    (tmp_path / "dataset").mkdir()
    (tmp_path / "dataset" / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(spark_ingest.WarehouseError, match="not empty and not a dataset of the Spark ingest"):
        spark_ingest.spark_ingest([tmp_path], tmp_path / "dataset", spark=spark_session)


def compare_texts(run_query, base: str, run: str) -> tuple[str, str]:
    """``warehouse compare``'s printed answers (JSON) and its Markdown report, evidence included."""
    comparison = compare.compare(run_query, *compare.resolve_pair(run_query, base, run))
    return compare.render_text(comparison, "json"), compare_tables.render_report(comparison, "data", ".md")


@pytest.mark.parametrize("pair", [("level0", "level1"),  # Ascend rank dbs: kernel, step, communication evidence
                                  ("worker0.1623143089861.pt.trace.json.gz",  # GPU traces: slice evidence
                                   "worker0.1623143566756.pt.trace.json.gz")])
def test_compare_on_the_dataset_answers_as_on_the_sqlite_ingest(real_run, engines, spark_session, pair):
    from warehouse.engines.spark import SparkEngine

    conn = sqlite3.connect(f"file:{real_run['db']}?mode=ro", uri=True)
    expected = compare_texts(compare.sqlite_runner(conn), *pair)
    conn.close()
    assert "| kernel |" in expected[1] or "| slice |" in expected[1]
    assert compare_texts(compare.engine_runner(engines["real"]), *pair) == expected
    spark = SparkEngine(real_run["dataset"], spark=spark_session)
    assert compare_texts(compare.engine_runner(spark), *pair) == expected
