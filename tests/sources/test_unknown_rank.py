"""One encoding of "rank unknown" (issue 33): -1 for an input about one rank that does not say
which, in its source row and its rows alike; NULL only for an input about no one rank."""

from __future__ import annotations

import sqlite3

from tests.factories.rank_db import RankDbFactory
from tests.factories.text_exports import ClusterStepTraceTimeFactory, KernelDetailsFactory
from tests.factories.trace_json import EventFactory, TraceFileFactory
from warehouse import db
from warehouse.ingest import ingest_file
from warehouse.sources.kit.rank_layout import UNKNOWN_RANK

OUTPUT = "ASCEND_PROFILER_OUTPUT"
#: the last migration before the one that moves NULL ranks to -1
BEFORE_MOVE = 19


def ingest_ok(conn, path):
    result = ingest_file(conn, path)
    assert result.status == "ok", result.error
    return result.source_id


def test_a_text_export_without_a_rank_is_unknown_like_a_rank_db_without_one(warehouse_db, tmp_path):
    folder = tmp_path / "job" / OUTPUT  # no rank folder, no profiler_info, no rank in the names
    csv = ingest_ok(warehouse_db, KernelDetailsFactory(path=folder / "kernel_details.csv").path)
    rank_db = ingest_ok(warehouse_db, RankDbFactory(path=folder / "ascend_pytorch_profiler.db", rank_in_map=False).path)
    assert UNKNOWN_RANK == -1
    assert warehouse_db.execute("SELECT id, rank_id FROM source ORDER BY id").fetchall() == [(csv, -1), (rank_db, -1)]
    assert warehouse_db.execute("SELECT source_id, count(*) FROM kernel WHERE rank_id = -1 GROUP BY source_id "
                                "ORDER BY source_id").fetchall() == [(csv, 2), (rank_db, 1)]
    assert warehouse_db.execute("SELECT count(*) FROM kernel WHERE rank_id IS NOT -1").fetchone() == (0,)
    # one rank, held by both files; its kernels are answered by the rank db alone (fact_precedence)
    assert warehouse_db.execute("SELECT rank_id, source_count FROM rank").fetchall() == [(-1, 2)]
    assert warehouse_db.execute("SELECT DISTINCT source_id FROM kernel_answer").fetchall() == [(rank_db,)]


def test_a_cluster_file_has_no_rank(warehouse_db, tmp_path):
    path = ClusterStepTraceTimeFactory(path=tmp_path / "cluster_analysis_output" / "cluster_step_trace_time.csv").path
    source = ingest_ok(warehouse_db, path)
    assert warehouse_db.execute("SELECT rank_id FROM source WHERE id = ?", (source,)).fetchall() == [(None,)]
    assert warehouse_db.execute("SELECT scope, rank_id FROM step_trace_time ORDER BY source_row").fetchall() == [
        ("rank", 3), ("stage", -1)]
    assert warehouse_db.execute("SELECT count(*) FROM rank").fetchone() == (0,)


def test_a_trace_without_a_rank_is_unknown_in_every_row(warehouse_db, tmp_path):
    events = [EventFactory(ph="M", name="process_name", pid=1, args={"name": "python"}),
              EventFactory(pid=1, tid=2, ts=10, dur=5),
              EventFactory(ph="C", name="HBM", pid=1, ts=12, args={"read": 3})]
    path = TraceFileFactory(path=tmp_path / "job" / "trace.json", events=events, shape="kineto",
                            top={"distributedInfo": {"backend": "hccl"}})  # kineto without a rank
    source = ingest_ok(warehouse_db, path)
    assert warehouse_db.execute("SELECT rank_id FROM source").fetchall() == [(-1,)]
    for table in ("process", "counter_track", "run_metadata"):
        assert warehouse_db.execute(f"SELECT DISTINCT source_id, rank_id FROM {table}").fetchall() == [(source, -1)]


def test_the_op_simulators_trace_is_about_no_rank(warehouse_db, tmp_path):
    path = TraceFileFactory(path=tmp_path / "rank0_ascend_pt" / "trace.json", shape="op")
    ingest_ok(warehouse_db, path)
    assert warehouse_db.execute("SELECT rank_id FROM source").fetchall() == [(None,)]
    assert warehouse_db.execute("SELECT DISTINCT rank_id FROM process").fetchall() == [(None,)]


def add_source(conn, kind, *, status="ok", stage=None, rank_id=None) -> int:
    return conn.execute(
        "INSERT INTO source (path, kind, sha256, size_bytes, rank_id, status, ingested_at, stage) "
        "VALUES (?, ?, '', 0, ?, ?, '', ?)", (f"/{kind}", kind, rank_id, status, stage)).lastrowid


def test_the_migration_moves_the_null_ranks_of_per_rank_inputs_to_unknown(warehouse_path):
    conn = sqlite3.connect(warehouse_path, isolation_level=None)
    db.migrate(conn, migrations=db.available_migrations()[:BEFORE_MOVE])
    trace, simulator, csv, cluster, pending, failed, ranked = (
        add_source(conn, "trace_json"), add_source(conn, "trace_json"), add_source(conn, "kernel_details_csv"),
        add_source(conn, "cluster_step_trace_time_csv"), add_source(conn, "rank_db", stage="pending"),
        add_source(conn, "kernel_details_csv", status="failed"), add_source(conn, "trace_json", rank_id=3))
    for source in (trace, simulator, ranked):
        conn.execute("INSERT INTO process (source_id, rank_id, pid) VALUES (?, NULL, '1')", (source,))
        conn.execute("INSERT INTO counter_track (source_id, rank_id, name) VALUES (?, NULL, 'c')", (source,))
    conn.execute("INSERT INTO run_metadata (source_id, rank_id, name) VALUES (?, NULL, 'profilingType')", (simulator,))
    conn.execute("INSERT INTO run_metadata (source_id, rank_id, name) VALUES (?, NULL, 'schemaVersion')", (trace,))
    conn.close()

    conn = db.connect(warehouse_path)
    assert conn.execute("SELECT id, rank_id FROM source ORDER BY id").fetchall() == [
        (trace, -1), (simulator, None), (csv, -1), (cluster, None), (pending, None), (failed, None), (ranked, 3)]
    for table in ("process", "counter_track"):
        assert conn.execute(f"SELECT source_id, rank_id FROM {table} ORDER BY source_id").fetchall() == [
            (trace, -1), (simulator, None), (ranked, None)]
    assert conn.execute("SELECT source_id, rank_id FROM run_metadata ORDER BY source_id").fetchall() == [
        (trace, -1), (simulator, None)]
    assert not conn.execute("SELECT name FROM sqlite_temp_master").fetchall()
    conn.close()
