"""The model's views as files (warehouse/model/views/, warehouse/schema_views.py).

A warehouse made by the release before the views left the migrations (schema 18, its views
created by the migrations) is upgraded by ``warehouse migrate`` and then answers every named
query exactly as a fresh warehouse holding the same rows; a changed view file is recreated on
the next open; a read-only open refuses a warehouse whose views differ from the files as it refuses
one with a migration pending (``warehouse migrate`` upgrades it), and ``warehouse check`` names it.
"""

from __future__ import annotations

import sqlite3

import pytest

from warehouse import audits, db, ingest, queries, schema_views
from warehouse.cli import cli
from warehouse.errors import WarehouseError

PREVIOUS_RELEASE = 18  # the schema version whose migrations still created the views


def _tables(conn: sqlite3.Connection) -> list[str]:
    return [name for (name,) in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' "
        "AND name NOT IN ('schema_migrations', 'schema_views') "
        "AND name NOT IN (SELECT name FROM pragma_table_list WHERE type IN ('shadow', 'virtual'))")]


def _answers(conn: sqlite3.Connection) -> dict[str, list[tuple]]:
    answers = {}
    for name, query in sorted(queries.catalog().items()):
        values = {p.name: 1 if p.type in ("integer", "real", "boolean") else "x" for p in query.params if p.required}
        columns, rows = query.run(conn, values)
        answers[name] = [tuple(row) for row in rows]
    return answers


@pytest.fixture(scope="module")
def fresh(tmp_path_factory, realdata):
    path = tmp_path_factory.mktemp("fresh") / "warehouse.db"
    conn = db.connect(path)
    ingest.ingest_paths(conn, [realdata / "msinsight" / "pytorch", realdata / "kineto"])
    return conn


@pytest.mark.slow
def test_a_warehouse_of_the_previous_release_upgrades_and_answers_as_a_fresh_one(fresh, tmp_path):
    old = sqlite3.connect(tmp_path / "old.db", isolation_level=None)
    db.migrate(old, migrations=db.available_migrations()[:PREVIOUS_RELEASE])
    made_by_migrations = {name for (name,) in old.execute("SELECT name FROM sqlite_master WHERE type = 'view'")}
    assert {"step_kernel", "step_activity", "step_answer"} <= made_by_migrations
    fresh_path = fresh.execute("PRAGMA database_list").fetchone()[2]
    old.execute("ATTACH ? AS fresh", (fresh_path,))
    old.execute("BEGIN")
    for table in _tables(old):
        if old.execute(f'SELECT 1 FROM main."{table}" LIMIT 1').fetchone():
            continue  # the migrations' own data (fact_precedence, ...), as the previous release wrote it
        columns = ", ".join(f'"{c[1]}"' for c in old.execute(f'PRAGMA table_info("{table}")'))
        old.execute(f'INSERT INTO main."{table}" ({columns}) SELECT {columns} FROM fresh."{table}"')
    old.execute("COMMIT")
    old.execute("DETACH fresh")

    applied = db.migrate(old)

    assert [m.version for m in applied] == list(range(PREVIOUS_RELEASE + 1, len(db.available_migrations()) + 1))
    view_sql = "SELECT name, sql FROM sqlite_master WHERE type = 'view' ORDER BY rowid"
    assert old.execute(view_sql).fetchall() == fresh.execute(view_sql).fetchall()
    assert schema_views.changed(old) == []
    old_answers, fresh_answers = _answers(old), _answers(fresh)
    assert sum(len(rows) for rows in fresh_answers.values()) > 1000  # real answers, not empty ones
    # unread_inputs lists what an ingest recorded of the tables it did not read (source_unread,
    # 0022): inputs ingested before it recorded nothing; `ingest --force` lists them
    assert {name for name, rows in old_answers.items() if rows != fresh_answers[name]} == {"unread_inputs"}
    assert old_answers["unread_inputs"] == [] and fresh_answers["unread_inputs"] != []


def test_a_changed_view_file_is_refused_read_only_and_recreated_on_the_next_open(tmp_path, monkeypatch):
    path = tmp_path / "warehouse.db"
    db.connect(path).close()
    views = schema_views.available_views()
    changed = [schema_views.View(v.name, v.select + "\nLIMIT 0", v.description, v.columns) if v.name == "rank" else v
               for v in views]
    monkeypatch.setattr(schema_views, "available_views", lambda: changed)
    refusal = f"{path}: views differ from this code's files (rank); run `warehouse migrate`"
    with pytest.raises(WarehouseError) as refused:
        db.connect_readonly(path)
    assert str(refused.value) == refusal
    assert audits.check_warehouse(path).errors == [f"{refusal} (audits not run)"]
    conn = db.connect(path)
    assert schema_views.changed(conn) == []
    assert conn.execute("SELECT sql FROM sqlite_master WHERE name = 'rank'").fetchone()[0].endswith("LIMIT 0")
    assert dict(conn.execute("SELECT name, sha256 FROM schema_views"))["rank"] == changed[
        [v.name for v in changed].index("rank")].sha256


def test_a_read_only_open_refuses_views_that_differ_until_warehouse_migrate(tmp_path, runner):
    path = tmp_path / "warehouse.db"
    db.connect(path).close()
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("UPDATE schema_views SET sha256 = 'edited' WHERE name = 'step_answer'")
    writer.close()
    with pytest.raises(WarehouseError) as refused:
        db.connect_readonly(path)
    assert str(refused.value) == f"{path}: views differ from this code's files (step_answer); run `warehouse migrate`"

    result = runner.invoke(cli, ["migrate", "--db", str(path)])

    assert result.exit_code == 0, result.output
    reader = db.connect_readonly(path)
    assert schema_views.changed(reader) == []
    assert reader.execute("SELECT count(*) FROM step_answer").fetchone() == (0,)
    reader.close()


def test_a_read_only_open_refuses_a_pending_migration_alike(tmp_path):
    path = tmp_path / "older.db"
    conn = sqlite3.connect(path, isolation_level=None)
    db.migrate(conn, migrations=db.available_migrations()[:1])
    conn.close()
    with pytest.raises(WarehouseError) as refused:
        db.connect_readonly(path)
    latest = db.available_migrations()[-1].version
    assert str(refused.value) == f"{path}: schema version 1 is behind this code's {latest}; run `warehouse migrate`"


def test_views_are_created_after_the_views_they_read(tmp_path):
    conn = db.connect(tmp_path / "warehouse.db")
    order = [name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'view' ORDER BY rowid")]
    for view in schema_views.available_views():
        for other in schema_views.reads(view) & set(order):
            assert order.index(other) < order.index(view.name), (view.name, other)
