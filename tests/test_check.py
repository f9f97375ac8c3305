"""``warehouse check``: integrity, schema version and audits, with exit 1 on any problem."""

import json
import sqlite3

from warehouse import audits, db
from warehouse.cli import cli

FINISHED_SOURCE = (
    "INSERT INTO source (id, path, kind, sha256, size_bytes, status, row_count, elapsed_ns, ingested_at) "
    "VALUES (1, '/in/k.csv', 'kernel_details', 'aa', 10, 'ok', 0, 5, '2026-01-01T00:00:00+00:00')"
)


def check(runner, warehouse_path, *extra):
    return runner.invoke(cli, ["check", "--db", str(warehouse_path), *extra])


def test_a_sound_warehouse_passes(runner, warehouse_path, warehouse_db):
    warehouse_db.execute(FINISHED_SOURCE)
    result = check(runner, warehouse_path)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == f"{warehouse_path}: ok"
    assert lines[1] == "  integrity_check: ok"
    version = db.available_migrations()[-1].version
    assert lines[2] == f"  schema version: {version} (this code: {version})"
    assert "  pass  slice_dur_non_negative" in lines
    assert not [line for line in lines if "FAIL" in line]


def test_a_violation_fails_naming_the_audit_and_showing_the_row(runner, warehouse_path, warehouse_db):
    warehouse_db.execute(FINISHED_SOURCE)
    warehouse_db.execute(
        "INSERT INTO kernel (id, source_id, source_row, origin, name, dur) VALUES (7, 1, 3, 'kernel_details_csv', 'Add_9', -12)"
    )
    warehouse_db.execute("UPDATE source SET row_count = 1")
    result = check(runner, warehouse_path)
    assert result.exit_code == 1
    assert f"{warehouse_path}: 1 problem(s)" in result.output
    assert "  FAIL  kernel_dur_non_negative: 1 violating row(s); Every kernel has a duration" in result.output
    assert "Add_9" in result.output and "-12" in result.output
    assert "  pass  kernel_op_class_allowed" in result.output


def test_json_report(runner, warehouse_path, warehouse_db):
    warehouse_db.execute(FINISHED_SOURCE)
    warehouse_db.execute("UPDATE source SET elapsed_ns = NULL")
    result = check(runner, warehouse_path, "--json")
    assert result.exit_code == 1
    report = json.loads(result.output)
    assert report["ok"] is False
    assert report["integrity_check"] == ["ok"]
    assert report["problems"] == ["audit source_final_state: 1 violating row(s)"]
    (failed,) = [audit for audit in report["audits"] if not audit["passed"]]
    assert failed["name"] == "source_final_state"
    assert failed["examples"] == [
        {"id": 1, "path": "/in/k.csv", "kind": "kernel_details", "status": "ok", "stage": None, "error": None,
         "row_count": 0, "elapsed_ns": None}
    ]


def test_a_warehouse_newer_than_the_code_is_refused(runner, warehouse_path, warehouse_db):
    newer = db.available_migrations()[-1].version + 1
    warehouse_db.execute(f"PRAGMA user_version = {newer}")
    result = check(runner, warehouse_path, "--json")
    assert result.exit_code == 1
    report = json.loads(result.output)
    assert report["problems"] == [
        f"{warehouse_path}: warehouse schema version {newer} is newer than this code's {newer - 1}; "
        "upgrade the warehouse package to read it"
    ]
    assert report["audits"] == []


def test_an_edited_migration_is_refused(runner, warehouse_path, warehouse_db):
    warehouse_db.execute("UPDATE schema_migrations SET sha256 = 'edited' WHERE version = 1")
    result = check(runner, warehouse_path)
    assert result.exit_code == 1
    assert "error: " in result.output
    assert "migration 0001_core.sql differs from the one this warehouse was built with" in result.output


def test_an_older_warehouse_asks_for_migrate(runner, warehouse_path, tmp_path):
    conn = db.connect(warehouse_path, migrate_schema=False)
    db.migrate(conn, migrations=db.available_migrations()[:1])
    result = check(runner, warehouse_path)
    assert result.exit_code == 1
    assert "is behind this code's" in result.output and "run `warehouse migrate`" in result.output


def test_a_corrupt_index_fails_the_integrity_check(runner, warehouse_path, warehouse_db):
    warehouse_db.execute(FINISHED_SOURCE)
    warehouse_db.execute("INSERT INTO kernel (source_id, origin, name, op_type) VALUES (1, 'rank_db', 'MatMul_1', 'MatMul')")
    warehouse_db.execute("UPDATE source SET row_count = 1")
    # point the index's definition at another column: its entries no longer match the table
    warehouse_db.execute("PRAGMA writable_schema = ON")
    warehouse_db.execute("UPDATE sqlite_master SET sql = 'CREATE INDEX kernel_name ON kernel (op_type)' WHERE name = 'kernel_name'")
    warehouse_db.close()
    result = check(runner, warehouse_path)
    assert result.exit_code == 1
    assert "  integrity_check: row 1 missing from index kernel_name" in result.output


def test_not_a_warehouse(runner, tmp_path):
    missing = tmp_path / "missing.db"
    result = check(runner, missing)
    assert result.exit_code == 1
    assert result.output == f"Error: {missing}: no such warehouse\n"
    text = tmp_path / "notes.db"
    text.write_text("hello, not SQLite at all" * 100)
    result = check(runner, text)
    assert result.exit_code == 1
    assert result.output == f"Error: {text}: not an SQLite warehouse (file is not a database)\n"


def test_check_only_reads(runner, warehouse_path, warehouse_db):
    warehouse_db.execute(FINISHED_SOURCE)
    warehouse_db.close()
    before = warehouse_path.read_bytes()
    assert check(runner, warehouse_path).exit_code == 0
    assert warehouse_path.read_bytes() == before


def test_real_profiles_pass_every_audit_their_files_keep(runner, warehouse_path, realdata):
    # kineto traces, a two-rank torch_npu text export, and msinsight's samples of every other export
    # (the rank db and hta samples still fail source_row_count_matches: their rank row is miscounted)
    runs = [realdata / "kineto", realdata / "msinsight/pytorch/text/level0", realdata / "msinsight/server_test_data"]
    ingest = runner.invoke(cli, ["ingest", *map(str, runs), "--db", str(warehouse_path), "-q"])
    assert ingest.exit_code == 0, ingest.output
    conn = db.connect_readonly(warehouse_path)
    counts = {table: conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
              for table in ("_slice", "flow", "_counter", "kernel", "thread")}
    conn.close()
    assert all(counts.values()), counts  # every audited table has rows to audit
    result = check(runner, warehouse_path)
    # but one: msinsight's server test data keeps 21 rows of each rank's kernel_details.csv (4 and 2 of them
    # HCCL operators) beside the whole communication.json (28 operators), which therefore answers the ranks'
    # operators (hccl_summary_rank), and a cluster_communication.json that lists 3 of each rank's 28 (the
    # broadcasts and the send): hccl_operators_agree names the types that file leaves out, and nothing else
    assert result.exit_code == 1, result.output
    assert result.output.count("  pass  ") == len(audits.load_audits()) - 1
    assert "  FAIL  hccl_operators_agree: 6 violating row(s)" in result.output
    conn = db.connect_readonly(warehouse_path)
    agree = audits.run_audit(conn, next(a for a in audits.load_audits() if a.name == "hccl_operators_agree"))
    runs = {conn.execute("SELECT name FROM run WHERE run_id = ?", (row[0],)).fetchone()[0] for row in agree.examples}
    conn.close()
    assert runs == {"server_test_data"}
    listed = {"hcom_allGather_": 10, "hcom_allReduce_": 6, "hcom_reduceScatter_": 9}  # each rank's communication.json
    expected = [(rank, name, "cluster_communication_json", 0, count) for rank in (0, 1) for name, count in listed.items()]
    assert sorted((row[1], row[2], row[3], row[5], row[6]) for row in agree.examples) == sorted(expected)


def test_a_version_without_migration_records_is_reported(runner, tmp_path):
    other = tmp_path / "other.db"
    conn = sqlite3.connect(other)
    conn.execute("PRAGMA user_version = 1")
    conn.close()
    result = check(runner, other)
    assert result.exit_code == 1
    assert f"  error: {other}: schema version 1 but no migration record (no such table: schema_migrations)" in result.output


def test_a_damaged_page_is_reported_not_raised(runner, warehouse_path, warehouse_db):
    warehouse_db.executescript(
        FINISHED_SOURCE.replace("'ok', 0,", "'ok', 20002,") + ";"
        "INSERT INTO process (id, source_id, pid) VALUES (1, 1, '1');"
        "INSERT INTO thread (id, process_id, source_id, tid) VALUES (1, 1, 1, '1');"
    )
    warehouse_db.executemany("INSERT INTO _slice (thread_id, ts, dur, source_id) VALUES (1, ?, 5, 1)",
                             [(ts,) for ts in range(20000)])
    warehouse_db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    (pages,) = warehouse_db.execute("PRAGMA page_count").fetchone()
    (page_size,) = warehouse_db.execute("PRAGMA page_size").fetchone()
    warehouse_db.close()
    with warehouse_path.open("r+b") as stream:  # a page of the slices' b-tree overwritten
        stream.seek(page_size * (pages - 30))
        stream.write(b"\xff" * page_size)
    result = check(runner, warehouse_path)
    assert result.exit_code == 1
    assert "  integrity_check: database disk image is malformed" in result.output
    assert "  error: audit fact_source_ok cannot run on this warehouse (database disk image is malformed)" in result.output


def test_every_disagreeing_figure_is_listed_largest_first(tmp_path, runner, warehouse_path):
    """A rank db whose analysis.db disagrees on six figures of a step: check lists all six, the
    largest disagreement (relative to the profiler's figure) first; it showed five, the largest left out."""
    from factories.analysis_db import AnalysisDbFactory
    from factories.rank_db import RankDbFactory
    from warehouse.ingest import ingest_paths

    folder = tmp_path / "job" / "rank0_ascend_pt" / "ASCEND_PROFILER_OUTPUT"
    folder.mkdir(parents=True)
    RankDbFactory(path=folder / "ascend_pytorch_profiler_0.db", rank_id=0)
    # step 1 as the rows give it: computing 2.5 us, communication 1.2 (none overlapped), free 0.4, stage 4.1,
    # preparing 5.0; the profiler's figures below differ by -75, -70, -60, -80, -50 and -28.57 %
    row = {"Step": "1", "Computing": "10", "Communication(Not Overlapped)": "4", "Overlapped": "0",
           "Communication": "3", "Free": "2", "Stage": "8.2", "Bubble": "0",
           "Communication(Not Overlapped and Exclude Receive)": "4", "Preparing": "7"}
    AnalysisDbFactory(path=folder / "analysis.db", step_trace=[row], omit=("CommAnalyzerTime",))
    ingest_paths(db.connect(warehouse_path), [tmp_path / "job"])

    result = check(runner, warehouse_path, "--json")
    assert result.exit_code == 1
    (failed,) = [audit for audit in json.loads(result.output)["audits"] if not audit["passed"]]
    assert failed["name"] == "step_breakdown_agrees" and failed["violations"] == 6
    assert [(e["figure"], e["profiler_value"], e["derived_value"], e["differs_pct"]) for e in failed["examples"]] == [
        ("free_ns", 2_000, 400, -80.0),
        ("computing_ns", 10_000, 2_500, -75.0),
        ("communication_not_overlapped_ns", 4_000, 1_200, -70.0),
        ("communication_ns", 3_000, 1_200, -60.0),
        ("stage_ns", 8_200, 4_100, -50.0),
        ("preparing_ns", 7_000, 5_000, -28.57),
    ]
    text = check(runner, warehouse_path).output
    assert "step_breakdown_agrees: 6 violating row(s)" in text and "not shown" not in text
    positions = [text.index(f" {figure} ") for figure in ("free_ns", "computing_ns", "preparing_ns")]
    assert positions == sorted(positions)


def test_rows_left_out_of_a_failed_audit_are_counted(runner, warehouse_path, warehouse_db):
    warehouse_db.execute(FINISHED_SOURCE)
    warehouse_db.executemany(
        "INSERT INTO kernel (id, source_id, source_row, origin, name, dur) VALUES (?, 1, ?, 'kernel_details_csv', ?, -1)",
        [(i, i, f"Add_{i}") for i in range(1, 8)],
    )
    warehouse_db.execute("UPDATE source SET row_count = 7")
    result = check(runner, warehouse_path)
    assert "kernel_dur_non_negative: 7 violating row(s)" in result.output
    assert "        (2 more not shown: the first 5 in the audit's order)" in result.output.splitlines()
