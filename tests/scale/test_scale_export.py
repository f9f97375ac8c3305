"""``warehouse export``: the Parquet folder, its manifest, the typing rule, and the CLI."""

from __future__ import annotations

import json
import sqlite3

import pyarrow.parquet as pq
import pytest

from factories import warehouse_rows
from warehouse import db, export
from warehouse.cli import cli
from warehouse.engines.duckdb import DuckDBEngine

#: named queries that read only the schema's own data (the precedence between inputs), so an empty
#: warehouse answers them with rows
SCHEMA_DATA_QUERIES = {"insight_timeline_kinds"}


def read_table(folder):
    """A table's exported rows as a pyarrow Table (partition folders give back rank_id)."""
    return pq.read_table(folder, partitioning="hive")


def test_manifest_lists_every_table_and_view_with_counts(factory_warehouse, exported):
    manifest = json.loads((exported / export.MANIFEST).read_text(encoding="utf-8"))
    conn = sqlite3.connect(factory_warehouse)
    names = {n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view') "
                                        "AND name NOT LIKE 'sqlite%' "
                                        "AND name NOT IN (SELECT name FROM pragma_table_list WHERE type = 'shadow')")}
    assert set(manifest["tables"]) == names - {"schema_migrations", "schema_views"}
    views = {n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'view'")}
    assert set(manifest["views"]) == views and all(len(sha) == 64 for sha in manifest["views"].values())
    assert manifest["schema_version"] == len(db.available_migrations())
    assert [m["version"] for m in manifest["migrations"]] == list(range(1, manifest["schema_version"] + 1))
    for name, table in manifest["tables"].items():
        assert table["rows"] == conn.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0], name
    assert (manifest["tables"]["slice"]["kind"], manifest["tables"]["kernel"]["kind"]) == ("view", "table")


def test_rank_tables_are_partitioned_by_rank(factory_warehouse, exported):
    manifest = json.loads((exported / export.MANIFEST).read_text(encoding="utf-8"))
    conn = sqlite3.connect(factory_warehouse)
    ranks = [r for (r,) in conn.execute("SELECT DISTINCT rank_id FROM kernel ORDER BY 1")]
    kernel = manifest["tables"]["kernel"]
    assert kernel["partitioned_by"] == "rank_id"
    assert kernel["partitions"] == sorted(f"rank_id={r}" for r in ranks)
    assert sorted(p.name for p in (exported / "kernel").iterdir()) == kernel["partitions"]
    # the key lives in the folder names, not in the files
    assert "rank_id" not in pq.read_schema(next((exported / "kernel").glob("*/*.parquet"))).names
    # rank is a view over the inputs, one row per run and rank: split by rank like the facts
    assert manifest["tables"]["rank"]["partitioned_by"] == "rank_id"
    assert manifest["tables"]["string"]["partitioned_by"] is None


def test_rows_with_a_null_rank_go_to_the_default_partition(factory_warehouse, exported):
    conn = sqlite3.connect(factory_warehouse)
    nulls = conn.execute("SELECT count(*) FROM process WHERE rank_id IS NULL").fetchone()[0]
    assert nulls > 0
    folder = exported / "process" / f"rank_id={export.NULL_PARTITION}"
    assert pq.read_table(folder).num_rows == nulls
    engine = DuckDBEngine(exported)
    assert engine.conn.execute("SELECT count(*) FROM process WHERE rank_id IS NULL").fetchone()[0] == nulls


def test_storage_tables_are_exported_under_a_folder_spark_reads(exported):
    manifest = json.loads((exported / export.MANIFEST).read_text(encoding="utf-8"))
    assert manifest["tables"]["_slice"]["path"] == "internal.slice"
    assert (exported / "internal.slice").is_dir() and not (exported / "_slice").exists()


def test_column_types_follow_the_declared_types(exported):
    manifest = json.loads((exported / export.MANIFEST).read_text(encoding="utf-8"))
    kernel = {c["name"]: (c["sqlite_type"], c["type"]) for c in manifest["tables"]["kernel"]["columns"]}
    assert kernel["ts"] == ("INTEGER", "int64")
    assert kernel["aic_mac_ratio"] == ("REAL", "float64")
    assert kernel["name"] == ("TEXT", "string")
    schema = pq.read_schema(next((exported / "kernel").glob("*/*.parquet")))
    assert (str(schema.field("ts").type), str(schema.field("name").type)) == ("int64", "string")


def test_a_table_without_an_integer_key_carries_its_rowid(factory_warehouse, exported):
    conn = sqlite3.connect(factory_warehouse)
    expected = conn.execute("SELECT rowid, table_name, row_index, column_index FROM memory_table "
                            "ORDER BY rowid").fetchall()
    table = read_table(exported / "memory_table").sort_by("rowid")
    assert list(zip(*(table.column(c).to_pylist() for c in ("rowid", "table_name", "row_index", "column_index")))) \
        == expected
    manifest = json.loads((exported / export.MANIFEST).read_text(encoding="utf-8"))
    assert "rowid" not in [c["name"] for c in manifest["tables"]["kernel"]["columns"]]  # id is its rowid


def test_blob_columns_become_text_as_sqlite_spells_it(factory_warehouse, exported):
    # memory_table.value is declared BLOB and keeps 'hit', 3 and 80.15799 as typed
    conn = sqlite3.connect(factory_warehouse)
    expected = conn.execute("SELECT rowid, CAST(value AS TEXT), typeof(value) FROM memory_table ORDER BY rowid").fetchall()
    assert {kind for *_, kind in expected} >= {"text", "integer", "real"}
    table = read_table(exported / "memory_table").sort_by("rowid")
    assert str(table.schema.field("value").type) == "string"
    assert table.column("value").to_pylist() == [text for _, text, _ in expected]


def test_a_view_column_without_declared_type_takes_its_values_type(warehouse_db, tmp_path):
    warehouse_db.execute("CREATE VIEW ratios AS SELECT id, id * 2 AS twice, id / 2.0 AS half, "
                         "'#' || id AS label, NULL AS empty FROM string")
    with warehouse_rows.bound(warehouse_db):
        warehouse_rows.intern("a")
        warehouse_rows.intern("b")
    manifest = export.export_parquet(warehouse_db_path(warehouse_db), tmp_path / "out")
    types = {c["name"]: c["type"] for c in manifest["tables"]["ratios"]["columns"]}
    assert types == {"id": "int64", "twice": "int64", "half": "float64", "label": "string", "empty": "float64"}
    assert read_table(tmp_path / "out" / "ratios").sort_by("id").column("half").to_pylist() == [0.5, 1.0]


def test_a_true_blob_makes_the_column_binary(warehouse_db, tmp_path):
    with warehouse_rows.bound(warehouse_db):
        source = warehouse_rows.SourceFactory(kind="op_profile")
        warehouse_rows.insert("code_file", {"source_id": source["id"], "block_offset": 0, "path": "a.cpp",
                                            "content": b"\xff\xfe raw"})
        warehouse_rows.insert("code_file", {"source_id": source["id"], "block_offset": 1, "path": "b.py",
                                            "content": "x = 1\n"})
    manifest = export.export_parquet(warehouse_db_path(warehouse_db), tmp_path / "out")
    column = next(c for c in manifest["tables"]["code_file"]["columns"] if c["name"] == "content")
    assert (column["sqlite_type"], column["type"]) == ("BLOB", "binary")
    table = read_table(tmp_path / "out" / "code_file").sort_by("block_offset")
    assert table.column("content").to_pylist() == [b"\xff\xfe raw", b"x = 1\n"]


def test_export_streams_in_bounded_batches(factory_warehouse, tmp_path, monkeypatch):
    monkeypatch.setattr(export, "BATCH_ROWS", 7)
    monkeypatch.setattr(export, "BUFFER_ROWS", 10)
    export.export_parquet(factory_warehouse, tmp_path / "out")
    conn = sqlite3.connect(factory_warehouse)
    expected = conn.execute("SELECT id, ts, dur, name_id FROM _slice ORDER BY id").fetchall()
    files = list((tmp_path / "out" / "internal.slice").glob("*.parquet"))
    # rows are written out once 10 are buffered: a batch of 7 on top at most
    meta = pq.ParquetFile(files[0]).metadata
    sizes = [meta.row_group(i).num_rows for i in range(meta.num_row_groups)]
    assert sum(sizes) == len(expected) and len(sizes) > 1 and max(sizes) < 10 + 7
    table = read_table(tmp_path / "out" / "internal.slice").sort_by("id")
    assert list(zip(*(table.column(c).to_pylist() for c in ("id", "ts", "dur", "name_id")))) == expected


def test_an_empty_warehouse_exports_every_table_and_every_query_runs(warehouse_db, tmp_path):
    from warehouse import queries

    manifest = export.export_parquet(warehouse_db_path(warehouse_db), tmp_path / "out")
    # the schema's own data (the documented precedence between inputs, the declared references, the op
    # classes' compute flags) is the only content
    held = {name: warehouse_db.execute(f"SELECT count(*) FROM {name}").fetchone()[0]
            for name in ("fact_precedence", "column_reference", "op_class")}
    assert held["fact_precedence"] >= 21 and held["column_reference"] == 9 and held["op_class"] == 10
    assert {name: manifest["tables"][name]["rows"] for name in held} == held
    assert all(table["rows"] == 0 and table["partitioned_by"] is None for name, table in manifest["tables"].items()
               if name not in ("fact_precedence", "column_reference", "op_class"))
    engine = DuckDBEngine(tmp_path / "out")
    for query in queries.registry().values():
        values = {p.name: p.choices[0] if p.choices else 1 if p.type in ("integer", "real", "boolean") else "x"
                  for p in query.params if p.required}
        # an aggregate without groups answers one row of NULL, as SQLite does
        expected = {"insight_source_start": [(None,)], "insight_source_span": [(None, None)]}.get(query.name, [])
        if query.name in SCHEMA_DATA_QUERIES:
            expected = query.run(warehouse_db, values)[1]
            assert expected, f"{query.name} reads the schema's own data: it answers on an empty warehouse"
        assert engine.run(query, values)[1] == expected, query.name


def test_a_value_that_does_not_fit_its_type_fails_and_leaves_no_folder(warehouse_db, tmp_path):
    with warehouse_rows.bound(warehouse_db):
        warehouse_rows.KernelFactory(dur="N/A")  # SQLite keeps text in an INTEGER column
    with pytest.raises(export.WarehouseError, match=r"kernel\.dur: value 'N/A' does not fit the declared type"):
        export.export_parquet(warehouse_db_path(warehouse_db), tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_export_refuses_a_folder_holding_something_else(factory_warehouse, tmp_path):
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(export.WarehouseError, match="not empty and not a warehouse export"):
        export.export_parquet(factory_warehouse, tmp_path)
    assert (tmp_path / "notes.txt").exists()


def test_cli_export_and_replace(runner, factory_warehouse, tmp_path):
    out = tmp_path / "parquet"
    result = runner.invoke(cli, ["export", "--db", str(factory_warehouse), "--format", "parquet", "--out", str(out)])
    assert result.exit_code == 0, result.output
    tables = json.loads((out / export.MANIFEST).read_text(encoding="utf-8"))["tables"]
    assert result.output.startswith(f"{out}: {len(tables)} tables, {sum(t['rows'] for t in tables.values())} rows")
    again = runner.invoke(cli, ["export", "--db", str(factory_warehouse), "--out", str(out)])
    assert again.exit_code == 1 and "already holds an export (--replace to overwrite it)" in again.output
    assert runner.invoke(cli, ["export", "--db", str(factory_warehouse), "--out", str(out), "--replace"]).exit_code == 0


def test_cli_query_on_duckdb_answers_as_on_sqlite(runner, factory_warehouse, exported):
    base = ["query", "top_kernels", "-p", "limit=3", "-p", "run_id=1", "--format", "json"]
    on_sqlite = runner.invoke(cli, [*base, "--db", str(factory_warehouse)])
    on_duckdb = runner.invoke(cli, [*base, "--engine", "duckdb", "--data", str(exported)])
    assert on_sqlite.exit_code == on_duckdb.exit_code == 0, on_duckdb.output
    rows = json.loads(on_duckdb.output)
    assert len(rows) == 3 and rows == json.loads(on_sqlite.output)


@pytest.mark.slow
def test_cli_query_on_spark_answers_as_on_sqlite(runner, factory_warehouse, exported, spark_session):
    base = ["query", "step_time", "--format", "json"]
    on_sqlite = runner.invoke(cli, [*base, "--db", str(factory_warehouse)])
    on_spark = runner.invoke(cli, [*base, "--engine", "spark", "--master", "local[2]", "--data", str(exported)])
    assert on_spark.exit_code == 0, on_spark.output
    rows = json.loads(on_spark.output)
    assert rows and rows == json.loads(on_sqlite.output)


def test_cli_query_engine_needs_an_export(runner, tmp_path, exported):
    result = runner.invoke(cli, ["query", "top_kernels", "--engine", "duckdb"])
    assert result.exit_code == 2 and "--engine duckdb reads a Parquet export" in result.output
    result = runner.invoke(cli, ["query", "top_kernels", "--engine", "duckdb", "--data", str(tmp_path)])
    assert result.exit_code == 1 and f"{tmp_path}: not a warehouse export" in result.output
    old = tmp_path / "old"
    old.mkdir()
    manifest = json.loads((exported / export.MANIFEST).read_text(encoding="utf-8"))
    (old / export.MANIFEST).write_text(json.dumps({**manifest, "schema_version": 1}), encoding="utf-8")
    result = runner.invoke(cli, ["query", "top_kernels", "--engine", "duckdb", "--data", str(old)])
    assert result.exit_code == 1 and "exported at schema version 1" in result.output


def warehouse_db_path(conn: sqlite3.Connection) -> str:
    """The file behind a connection (the conftest's warehouse_db is on disk)."""
    return conn.execute("PRAGMA database_list").fetchone()[2]

