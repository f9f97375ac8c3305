"""The migration runner: fresh, upgrade, newer refused, edited refused, failure atomic."""

import sqlite3

import pytest

from warehouse import db
from warehouse.errors import WarehouseError


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
    assert {"source", "rank", "process", "thread", "_slice", "flow", "counter_track", "_counter", "step",
            "kernel"} <= tables(conn)
    views = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'view'")}
    assert {"slice", "counter"} <= views


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
