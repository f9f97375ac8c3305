"""The migration runner (fresh, upgrade, newer refused, edited refused, failure atomic) and data migrations."""

import random
import re
import sqlite3

import pytest

from tests.factories import warehouse_rows
from tests.factories.trace_json import TraceFileFactory
from warehouse import db
from warehouse.db import MIGRATIONS_DIR
from warehouse.errors import WarehouseError
from warehouse.sources.op_profile.values import gb_per_s_as_bytes_per_s, us_as_ns


def write_migrations(folder, *bodies):
    folder.mkdir(exist_ok=True)
    for number, body in enumerate(bodies, start=1):
        (folder / f"{number:04d}_step{number}.sql").write_text(body)
    return db.available_migrations(folder)


def tables(conn):
    return {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def test_fresh_warehouse_gets_every_migration(warehouse_path):
    conn = db.connect(warehouse_path)
    migrations = db.available_migrations()
    assert db.schema_version(conn) == migrations[-1].version
    recorded = conn.execute("SELECT version, name, sha256 FROM schema_migrations ORDER BY version").fetchall()
    assert recorded == [(m.version, m.name, m.sha256) for m in migrations]
    assert {"source", "run", "process", "thread", "_slice", "flow", "counter_track", "_counter", "step",
            "kernel"} <= tables(conn)
    views = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'view'")}
    assert {"slice", "counter", "rank", "step_answer"} <= views


def test_older_warehouse_is_upgraded_with_only_the_pending_migrations(tmp_path):
    first = write_migrations(tmp_path / "m", "CREATE TABLE a (x INTEGER);")
    conn = sqlite3.connect(tmp_path / "w.db", isolation_level=None)
    assert [m.version for m in db.migrate(conn, migrations=first)] == [1]
    conn.execute("INSERT INTO a VALUES (7)")
    both = write_migrations(tmp_path / "m", "CREATE TABLE a (x INTEGER);", "ALTER TABLE a ADD COLUMN y TEXT;")
    assert [m.version for m in db.migrate(conn, migrations=both)] == [2]
    assert conn.execute("SELECT x, y FROM a").fetchall() == [(7, None)]
    assert db.schema_version(conn) == 2
    assert db.migrate(conn, migrations=both) == []


def test_warehouse_newer_than_the_code_is_refused(tmp_path):
    both = write_migrations(tmp_path / "m", "CREATE TABLE a (x INTEGER);", "CREATE TABLE b (x INTEGER);")
    conn = sqlite3.connect(tmp_path / "w.db", isolation_level=None)
    db.migrate(conn, migrations=both)
    with pytest.raises(WarehouseError, match="schema version 2 is newer than this code's 1"):
        db.migrate(conn, migrations=both[:1])


def test_edited_landed_migration_is_refused(tmp_path):
    original = write_migrations(tmp_path / "m", "CREATE TABLE a (x INTEGER);")
    conn = sqlite3.connect(tmp_path / "w.db", isolation_level=None)
    db.migrate(conn, migrations=original)
    edited = write_migrations(tmp_path / "m", "CREATE TABLE a (x INTEGER, z TEXT);")
    with pytest.raises(WarehouseError, match="0001_step1.sql differs"):
        db.migrate(conn, migrations=edited)


def test_failing_migration_applies_nothing(tmp_path):
    broken = write_migrations(tmp_path / "m", "CREATE TABLE a (x INTEGER);", "CREATE TABLE a (y INTEGER);")
    conn = sqlite3.connect(tmp_path / "w.db", isolation_level=None)
    with pytest.raises(WarehouseError, match="migration failed, nothing applied"):
        db.migrate(conn, migrations=broken)
    assert db.schema_version(conn) == 0
    assert tables(conn) == set()


def test_gap_in_migration_numbers_is_refused(tmp_path):
    folder = tmp_path / "m"
    folder.mkdir()
    (folder / "0001_a.sql").write_text("SELECT 1;")
    (folder / "0003_c.sql").write_text("SELECT 1;")
    with pytest.raises(WarehouseError, match="migration 0002 is missing"):
        db.available_migrations(folder)


def test_reading_the_version_of_a_readonly_warehouse_never_writes(warehouse_path):
    db.connect(warehouse_path).close()
    conn = db.connect_readonly(warehouse_path)
    with pytest.raises(sqlite3.OperationalError):
        conn.execute("CREATE TABLE x (y INTEGER)")


def test_a_file_that_is_not_sqlite_is_a_clear_error(tmp_path):
    path = tmp_path / "notes.db"
    path.write_text("these are not the pages of a database" * 100)
    with pytest.raises(WarehouseError, match="not a usable SQLite warehouse"):
        db.connect(path)


def test_migrate_command_reports_the_version(runner, warehouse_path):
    from warehouse.cli import cli

    result = runner.invoke(cli, ["migrate", "--db", str(warehouse_path)])
    assert result.exit_code == 0, result.output
    latest = db.available_migrations()[-1]
    assert f"applied {latest.version:04d}_{latest.name}" in result.output
    assert f"schema version {latest.version}" in result.output


def test_ingest_says_it_upgrades_an_older_warehouse(runner, tmp_path):
    """An upgrade may rebuild an index for minutes: the commands that write say so before it starts,
    and only when there is an existing warehouse to upgrade."""
    from warehouse.cli import cli

    path = tmp_path / "w.db"
    every = db.available_migrations()
    conn = sqlite3.connect(path, isolation_level=None)
    db.migrate(conn, migrations=every[:-1])
    conn.close()
    TraceFileFactory(path=tmp_path / "inputs" / "trace.json")  # something to read: an empty folder is refused first
    result = runner.invoke(cli, ["ingest", str(tmp_path / "inputs"), "--db", str(path), "--quiet"])
    latest = every[-1]
    assert f"upgrading the schema from version {latest.version - 1} to {latest.version} " \
           f"({latest.version:04d}_{latest.name})" in result.stderr, result.output
    assert re.search(r": schema upgraded in \d+\.\d s\n", result.stderr), result.stderr
    assert db.schema_version(db.connect(path)) == latest.version
    again = runner.invoke(cli, ["ingest", str(tmp_path / "inputs"), "--db", str(path), "--quiet"])
    fresh = runner.invoke(cli, ["ingest", str(tmp_path / "inputs"), "--db", str(tmp_path / "new.db"), "--quiet"])
    assert "upgrad" not in again.stderr + fresh.stderr

# --- 0007_op_profile_units: ns and bytes/s beside the operator profile's us and GB/s ---------------

OP_PROFILE_UNITS = 7


def add_operator_rows(conn, durations, bandwidths):
    """One op_run and one op_block row per duration (us), one memory_unit row per bandwidth (GB/s)."""
    source = conn.execute("INSERT INTO source (path, kind, sha256, size_bytes, status, ingested_at) VALUES "
                          "('/op/visualize_data.bin', 'op_profile', 'x', 1, 'ok', '2026-11-22')").lastrowid
    for row, duration in enumerate(durations):
        conn.execute("INSERT INTO op_run (source_id, block_offset, duration_us) VALUES (?, ?, ?)", (source, row, duration))
        conn.execute("INSERT INTO op_block (source_id, block_offset, source_row, sub_index, duration_us) "
                     "VALUES (?, 0, ?, 0, ?)", (source, row, duration))
    for row, bandwidth in enumerate(bandwidths):
        conn.execute("INSERT INTO memory_unit (source_id, block_offset, source_row, bandwidth_gb_s) VALUES (?, 0, ?, ?)",
                     (source, row, bandwidth))


def test_version_6_operator_profile_gets_ns_and_bytes_per_s(warehouse_path):
    conn = sqlite3.connect(warehouse_path, isolation_level=None)
    db.migrate(conn, migrations=db.available_migrations()[:OP_PROFILE_UNITS - 1])
    # a float32 duration, an exact half (133207.5 ns: to even), none, one past 64-bit ns
    add_operator_rows(conn, [300.0660095214844, 133.2075, None, 1e16],
                      [19.008541, 3.637730836868286, 0.0000000005, None, 1e10])
    conn.close()

    conn = db.connect(warehouse_path)
    assert db.schema_version(conn) == db.available_migrations()[-1].version >= OP_PROFILE_UNITS
    expected_ns = [300066, 133208, None, None]
    assert [d for (d,) in conn.execute("SELECT dur FROM op_run ORDER BY block_offset")] == expected_ns
    assert [d for (d,) in conn.execute("SELECT dur FROM op_block ORDER BY source_row")] == expected_ns
    assert conn.execute("SELECT bandwidth_bytes_per_s FROM memory_unit ORDER BY source_row").fetchall() == [
        (19_008_541_000,), (3_637_730_837,), (0,), (None,), (None,)]
    # the writer's values stay as they were
    assert conn.execute("SELECT duration_us FROM op_run ORDER BY block_offset").fetchall() == [
        (300.0660095214844,), (133.2075,), (None,), (1e16,)]


def test_op_profile_units_backfill_gives_the_integers_an_ingest_writes(warehouse_db):
    # "%.6f" text as the writers print it, exact halves among them (plain round() gets ~1 in 2,000 wrong)
    pick = random.Random(7)
    texts = [f"{pick.randrange(10**10) / 10**6:.6f}" for _ in range(3000)]
    texts += [f"{pick.randrange(10**6)}.{pick.randrange(10**3):03d}5" for _ in range(1000)]
    add_operator_rows(warehouse_db, [float(t) for t in texts], [float(t) for t in texts])
    updates = [sql for sql in (MIGRATIONS_DIR / "0007_op_profile_units.sql").read_text().split(";")
               if sql.strip().startswith("UPDATE")]
    for sql in updates:
        warehouse_db.execute(sql)
    assert [d for (d,) in warehouse_db.execute("SELECT dur FROM op_block ORDER BY source_row")] == [
        us_as_ns(t) for t in texts]
    assert [b for (b,) in warehouse_db.execute("SELECT bandwidth_bytes_per_s FROM memory_unit ORDER BY source_row")] == [
        gb_per_s_as_bytes_per_s(t) for t in texts]

# --- 0025_not_given_types: a level-0 rank db's 'N/A' types stored by an older ingest become NULL ---

NOT_GIVEN_TYPES = 25


def test_an_older_ingest_s_n_a_types_become_not_given(warehouse_path):
    conn = sqlite3.connect(warehouse_path, isolation_level=None)
    db.migrate(conn, migrations=db.available_migrations()[:NOT_GIVEN_TYPES - 1])
    with warehouse_rows.bound(conn):
        warehouse_rows.KernelFactory(name="MatMul_1", op_type="N/A", task_type="N/A", accelerator_core="N/A")
        warehouse_rows.KernelFactory(name="Add_2", op_type="Add", task_type="", accelerator_core="AI_VECTOR_CORE")
        warehouse_rows.CommunicationOpFactory(name="hcom_allReduce__1_1", op_type="N/A")
    conn.close()

    conn = db.connect(warehouse_path)
    assert conn.execute("SELECT name, op_type, task_type, accelerator_core FROM kernel ORDER BY name").fetchall() == [
        ("Add_2", "Add", None, "AI_VECTOR_CORE"), ("MatMul_1", None, None, None)]
    assert conn.execute("SELECT op_type FROM communication_op").fetchall() == [(None,)]


# --- 0028_not_given_details: a level-0 rank db's 'N/A' shapes, data types, formats and HCCL task
# types (and HCCL operator data types) stored by an older ingest become NULL ---

NOT_GIVEN_DETAILS = 28
DETAILS = ("input_shapes", "input_dtypes", "input_formats", "output_shapes", "output_dtypes", "output_formats")


def test_an_older_ingest_s_n_a_details_become_not_given(warehouse_path):
    conn = sqlite3.connect(warehouse_path, isolation_level=None)
    db.migrate(conn, migrations=db.available_migrations()[:NOT_GIVEN_DETAILS - 1])
    with warehouse_rows.bound(conn):
        warehouse_rows.KernelFactory(name="MatMul_1", **dict.fromkeys(DETAILS, "N/A"))
        warehouse_rows.KernelFactory(name="Add_2", input_shapes="8,16;8,16", input_dtypes="", input_formats="ND;ND",
                                     output_shapes="8,16", output_dtypes="FLOAT16", output_formats="N/A")
        warehouse_rows.CommunicationTaskFactory(name="hcom_allReduce__1_1", task_type="N/A", rdma_type="N/A",
                                                transport_type="N/A", data_type="N/A", link_type="N/A")
        warehouse_rows.CommunicationTaskFactory(name="hcom_allReduce__1_2", task_type="Notify Wait")
        warehouse_rows.CommunicationOpFactory(name="hcom_allReduce__1", data_type="N/A")
        warehouse_rows.CommunicationOpFactory(name="hcom_allReduce__2", data_type="FP16")
    conn.close()

    conn = db.connect(warehouse_path)
    assert conn.execute(f"SELECT name, {', '.join(DETAILS)} FROM kernel ORDER BY name").fetchall() == [
        ("Add_2", "8,16;8,16", None, "ND;ND", "8,16", "FLOAT16", None), ("MatMul_1", *(None,) * 6)]
    types = "task_type, rdma_type, transport_type, data_type, link_type"
    assert conn.execute(f"SELECT name, {types} FROM communication_task ORDER BY name").fetchall() == [
        ("hcom_allReduce__1_1", None, None, None, None, None),
        ("hcom_allReduce__1_2", "Notify Wait", None, "SDMA", "FP16", "HCCS")]
    assert conn.execute("SELECT name, data_type FROM communication_op ORDER BY name").fetchall() == [
        ("hcom_allReduce__1", None), ("hcom_allReduce__2", "FP16")]


# --- 0039_insight_projects: the one project of 0038 becomes records of one project per name ---

INSIGHT_PROJECTS = 39
RUNS = ("/data/level0", "/data/level1")
#: 0038's paths taken out: a rank's file of the first run, a folder above both runs, a path below no run
REMOVED = ("/data/level0/rank1/a.db", "/data", "/elsewhere")


def explorer_at_0038(path, name: str | None) -> sqlite3.Connection:
    """A warehouse at 0038 with two runs, the paths :data:`REMOVED` taken out and the project named ``name``."""
    conn = sqlite3.connect(path, isolation_level=None)
    db.migrate(conn, migrations=db.available_migrations()[:INSIGHT_PROJECTS - 1])
    for root in RUNS:
        conn.execute("INSERT INTO run (name, root, created_at) VALUES (?, ?, '2026-12-03')", (root, root))
    conn.executemany("INSERT INTO insight_explorer_removed (path) VALUES (?)", [(gone,) for gone in REMOVED])
    if name:
        conn.execute("INSERT INTO insight_project (id, name) VALUES (1, ?)", (name,))
    conn.close()
    return db.connect(path)


def records(conn) -> tuple[list, list]:
    return (conn.execute("SELECT project, path FROM insight_project_import ORDER BY 1, 2").fetchall(),
            conn.execute("SELECT project, path FROM insight_project_removed ORDER BY 1, 2").fetchall())


def test_a_renamed_project_keeps_every_run_under_its_name(warehouse_path):
    conn = explorer_at_0038(warehouse_path, "mine")
    assert records(conn) == ([("mine", root) for root in RUNS],
                             [("mine", "/data"), ("mine", "/data/level0/rank1/a.db")])
    assert {"insight_project", "insight_explorer_removed"} & tables(conn) == set()


def test_an_unnamed_project_s_removed_paths_go_to_each_run_s_project(warehouse_path):
    conn = explorer_at_0038(warehouse_path, None)
    assert records(conn) == ([], [("/data/level0", "/data"), ("/data/level0", "/data/level0/rank1/a.db"),
                                  ("/data/level1", "/data")])
