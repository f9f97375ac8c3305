"""The ingest frame: one transaction per file, recorded outcomes, re-ingest rules, the CLI."""

import gzip
from pathlib import Path
import json

from warehouse.cli import cli

TWO_SLICES = [
    {"ph": "M", "name": "process_name", "pid": 1, "tid": 0, "args": {"name": "Python"}},
    {"ph": "X", "name": "forward", "pid": 1, "tid": 7, "ts": "100.500", "dur": "10.250", "cat": "cpu_op"},
    {"ph": "X", "name": "matmul", "pid": 1, "tid": 7, "ts": "101.000", "dur": "2.000", "cat": "cpu_op"},
]


def write_trace(path, events=TWO_SLICES):
    path.write_text(json.dumps(events))
    return path


def ingest(runner, warehouse_path, *paths, extra=()):
    return runner.invoke(cli, ["ingest", *map(str, paths), "--db", str(warehouse_path), *extra])


def rows(warehouse_db, sql, params=()):
    return warehouse_db.execute(sql, params).fetchall()


def test_unknown_files_are_recorded_as_skipped_with_a_reason(runner, warehouse_path, tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("not a profile")
    trace = write_trace(tmp_path / "trace.json")  # alone, a file nothing reads is an error (nothing ingested)
    result = ingest(runner, warehouse_path, notes, trace)
    assert result.exit_code == 0, result.output
    from warehouse import db

    conn = db.connect(warehouse_path)
    assert rows(conn, "SELECT status, kind, error, row_count FROM source WHERE path = ?", (str(notes),)) == [
        ("skipped", None, f"{notes}: no source reads this kind of file", 0)
    ]


def test_same_content_twice_is_a_no_op_and_force_replaces(runner, warehouse_path, warehouse_db, tmp_path):
    trace = write_trace(tmp_path / "trace.json")
    assert ingest(runner, warehouse_path, trace).exit_code == 0
    first = rows(warehouse_db, "SELECT id, status, row_count FROM source")
    # rows of every table: 1 process, 1 thread, 2 slices, and the Python process's 2 cpu_ops in pytorch_api
    assert first[0][1:] == ("ok", 6)
    result = ingest(runner, warehouse_path, trace)
    assert "unchanged" in result.output
    assert rows(warehouse_db, "SELECT id, status, row_count FROM source") == first
    assert rows(warehouse_db, "SELECT count(*) FROM slice") == [(2,)]

    assert ingest(runner, warehouse_path, trace, extra=["--force"]).exit_code == 0
    after = rows(warehouse_db, "SELECT id, status FROM source")
    assert len(after) == 1 and after[0][0] != first[0][0]
    assert rows(warehouse_db, "SELECT name, ts, dur, source_id FROM slice ORDER BY ts") == [
        ("forward", 100_500, 10_250, after[0][0]),
        ("matmul", 101_000, 2_000, after[0][0]),
    ]


def test_a_changed_file_replaces_its_older_version(runner, warehouse_path, warehouse_db, tmp_path):
    trace = write_trace(tmp_path / "trace.json")
    ingest(runner, warehouse_path, trace)
    write_trace(trace, TWO_SLICES[:2])
    assert ingest(runner, warehouse_path, trace).exit_code == 0
    assert rows(warehouse_db, "SELECT count(*) FROM source") == [(1,)]
    assert rows(warehouse_db, "SELECT name FROM slice") == [("forward",)]


def test_a_bad_file_among_good_ones_fails_alone(runner, warehouse_path, warehouse_db, tmp_path):
    good = write_trace(tmp_path / "a_good.json")
    bad = tmp_path / "b_bad.json"
    bad.write_text('[{"ph": "X", "name": "x", "pid": 1, "tid": 1, "ts": 1, "dur": 2}, {"ph": ')
    also_good = write_trace(tmp_path / "c_good.json.gz", TWO_SLICES[:2])
    also_good.write_bytes(gzip.compress(json.dumps(TWO_SLICES[:2]).encode()))
    result = ingest(runner, warehouse_path, tmp_path)
    assert result.exit_code == 1
    assert f"error: {bad}" in result.output
    statuses = rows(warehouse_db, "SELECT path, status FROM source ORDER BY path")
    assert statuses == [(str(good), "ok"), (str(bad), "failed"), (str(also_good), "ok")]
    (error,) = rows(warehouse_db, "SELECT error FROM source WHERE status = 'failed'")[0]
    assert error.startswith(f"{bad}: ") and "\n" not in error
    bad_id = rows(warehouse_db, "SELECT id FROM source WHERE status = 'failed'")[0][0]
    assert rows(warehouse_db, f"SELECT count(*) FROM slice WHERE source_id = {bad_id}") == [(0,)]
    assert rows(warehouse_db, f"SELECT count(*) FROM thread WHERE source_id = {bad_id}") == [(0,)]
    assert rows(warehouse_db, "SELECT count(*) FROM slice") == [(3,)]


def test_a_broken_new_version_keeps_the_rows_of_the_old_one(runner, warehouse_path, warehouse_db, tmp_path):
    trace = write_trace(tmp_path / "trace.json")
    ingest(runner, warehouse_path, trace)
    trace.write_text('[{"ph": "X", "name": "forward", "pid": 1, "tid": 7, "ts": ')
    assert ingest(runner, warehouse_path, trace).exit_code == 1
    assert rows(warehouse_db, "SELECT status FROM source ORDER BY id") == [("ok",), ("failed",)]
    assert rows(warehouse_db, "SELECT count(*) FROM slice") == [(2,)]


def test_the_warehouse_itself_is_not_an_input(runner, tmp_path):
    warehouse_path = tmp_path / "warehouse.db"
    write_trace(tmp_path / "trace.json")
    assert ingest(runner, warehouse_path, tmp_path).exit_code == 0
    result = ingest(runner, warehouse_path, tmp_path)  # now warehouse.db and its -wal/-shm are in the folder
    assert result.exit_code == 0
    from warehouse import db

    conn = db.connect(warehouse_path)
    assert rows(conn, "SELECT path, status FROM source") == [(str(tmp_path / "trace.json"), "ok")]


def test_info_json_and_sql_json(runner, warehouse_path, tmp_path):
    ingest(runner, warehouse_path, write_trace(tmp_path / "trace.json"))
    info = runner.invoke(cli, ["info", "--db", str(warehouse_path), "--json"])
    facts = json.loads(info.output)
    assert facts["row_counts"]["slice"] == 2
    assert facts["row_counts"]["process"] == 1
    assert [s["status"] for s in facts["sources"]] == ["ok"]
    result = runner.invoke(
        cli, ["sql", "SELECT name, dur FROM slice ORDER BY ts", "--db", str(warehouse_path), "--format", "json"]
    )
    assert json.loads(result.output) == [{"name": "forward", "dur": 10250}, {"name": "matmul", "dur": 2000}]
    csv_out = runner.invoke(cli, ["sql", "SELECT name FROM slice ORDER BY ts", "--db", str(warehouse_path),
                                  "--format", "csv"])
    assert csv_out.output == "name\nforward\nmatmul\n"


def test_sql_refuses_writes_with_a_message(runner, warehouse_path, tmp_path):
    ingest(runner, warehouse_path, write_trace(tmp_path / "trace.json"))
    result = runner.invoke(cli, ["sql", "DELETE FROM source", "--db", str(warehouse_path)])
    assert result.exit_code == 1
    assert "only a read-only SELECT or WITH query is allowed" in result.output
    assert "Traceback" not in result.output


def test_info_on_a_missing_warehouse_is_a_clear_error(runner, tmp_path):
    result = runner.invoke(cli, ["info", "--db", str(tmp_path / "none.db")])
    assert result.exit_code == 1
    assert "no such warehouse" in result.output


def test_replacing_the_source_that_declared_a_rank_keeps_the_rank(warehouse_db, tmp_path):
    from warehouse.ingest import ingest_file

    rank_dir = tmp_path / "rank3_ascend_pt"
    rank_dir.mkdir()
    (rank_dir / "profiler_info_3.json").write_text('{"rank_id": 3}')
    first = write_trace(rank_dir / "a_trace.json")
    second = write_trace(rank_dir / "b_trace.json", TWO_SLICES[:2])
    ingest_file(warehouse_db, first)
    ingest_file(warehouse_db, second)
    (declared_by,) = rows(warehouse_db, "SELECT source_id FROM rank WHERE rank_id = 3")[0]
    assert rows(warehouse_db, "SELECT rank_id FROM source ORDER BY id") == [(3,), (3,)]
    ingest_file(warehouse_db, Path(rows(warehouse_db, f"SELECT path FROM source WHERE id = {declared_by}")[0][0]),
                force=True)
    owners = rows(warehouse_db, "SELECT source_id FROM rank WHERE rank_id = 3")
    assert len(owners) == 1 and owners[0][0] != declared_by
    assert rows(warehouse_db, f"SELECT status FROM source WHERE id = {owners[0][0]}") == [("ok",)]


def test_gzipped_text_exports_are_read_directly(warehouse_db, tmp_path):
    from warehouse.ingest import ingest_file
    from warehouse.synth.kernel_details import write_kernel_details

    plain = tmp_path / "plain" / "kernel_details.csv"
    write_kernel_details(plain, 16, seed=3)
    packed = tmp_path / "packed" / "kernel_details.csv.gz"
    packed.parent.mkdir()
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    results = [ingest_file(warehouse_db, path) for path in (plain, packed)]
    assert [(r.status, r.kind, r.rows) for r in results] == [("ok", "kernel_details_csv", 16)] * 2
    by_source = warehouse_db.execute(
        "SELECT source_id, count(*), sum(dur), min(ts) FROM kernel GROUP BY source_id ORDER BY source_id"
    ).fetchall()
    assert len(by_source) == 2 and by_source[0][1:] == by_source[1][1:]
