"""Search by name (migration 0012, queries/search/search_names.sql): the trigram index over the
string table and the counts of name_use stay right through ingest, parts, --force, a replaced
input and the migration of an older warehouse; Datasette's search box on the string table uses it.

Two runs, ingested through the CLI: run a is one trace (the long aclnn name 3 slices, the grad 2,
MatMul 1); run b is a kernel_details.csv (FlashAttentionScore 2 kernels, MatMulV2 1) and a trace
(FlashAttentionScore 1 slice), so one name has slices and kernels from two inputs.
"""

from __future__ import annotations

import json
import sqlite3
import urllib.request

import pytest

from factories import warehouse_rows
from factories.text_exports import KernelDetailsFactory, KernelRowFactory
from factories.trace_json import EventFactory, TraceFileFactory
from planted_names import PLANTED, planted_warehouse
from tests.datasette.conftest import datasette_server
from warehouse import db, memory, queries
from warehouse import ingest as ingest_frame
from warehouse.cli import cli

LONG = "aclnnFlashAttentionScore_FlashAttentionScore_FlashAttentionScore"
GRAD = "FlashAttentionScoreGrad"


def trace(path, names: dict[str, int]):
    """A trace whose slices carry ``names`` (name -> how many)."""
    return TraceFileFactory(path=path, events=[EventFactory(name=name) for name, n in names.items() for _ in range(n)])


def ingest(runner, warehouse, path, run, *extra):
    result = runner.invoke(cli, ["ingest", str(path), "--db", str(warehouse), "--run", run, "-q", *extra])
    assert result.exit_code == 0, result.output


@pytest.fixture
def inputs(tmp_path):
    return {
        "a": trace(tmp_path / "a" / "trace.json", {LONG: 3, GRAD: 2, "MatMul": 1}),
        "b_kernels": KernelDetailsFactory(path=tmp_path / "b" / "kernel_details.csv", rows=[
            KernelRowFactory(name="FlashAttentionScore"), KernelRowFactory(name="FlashAttentionScore"),
            KernelRowFactory(name="MatMulV2")]).path,
        "b_trace": trace(tmp_path / "b_trace" / "trace.json", {"FlashAttentionScore": 1}),
    }


@pytest.fixture
def warehouse(runner, warehouse_path, inputs):
    ingest(runner, warehouse_path, inputs["a"], "a")
    ingest(runner, warehouse_path, inputs["b_kernels"], "b")
    ingest(runner, warehouse_path, inputs["b_trace"], "b")
    return warehouse_path


def search(path, **params) -> list[tuple]:
    """(run name, name, slices, kernels, api_calls, inputs) of each row of search_names (opened
    without the schema check: one test reads a warehouse upgraded only as far as 0012)."""
    conn = db.open_readonly(path)
    try:
        runs = dict(conn.execute("SELECT run_id, name FROM run"))
        _, rows = queries.get("search_names").run(conn, {k: str(v) for k, v in params.items()})
    finally:
        conn.close()
    return [(runs[run_id], *rest) for run_id, *rest in rows]


def index_is_exact(path) -> None:
    """FTS5's own check that the index holds exactly the string table's values."""
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO _string_fts (_string_fts) VALUES ('integrity-check')")
    conn.close()


def test_a_word_inside_names_finds_them_in_every_run_with_their_uses(warehouse):
    # the most used first (3 uses each: then by name, capitals first)
    assert search(warehouse, text="FlashAttention") == [
        ("b", "FlashAttentionScore", 1, 2, 0, 2),
        ("a", LONG, 3, 0, 0, 1),
        ("a", GRAD, 2, 0, 0, 1),
    ]
    index_is_exact(warehouse)


@pytest.mark.parametrize(
    "text,names",
    (
        ("Flash*", {LONG, "FlashAttentionScore", GRAD}),  # a prefix, as FTS writes it
        ("flash*grad", {GRAD}),  # any case; * inside
        ("matmul", {"MatMul", "MatMulV2"}),
        ("ScoreGrad", {GRAD}),
        ("Softmax", set()),
    ),
)
def test_prefixes_case_and_wildcards(warehouse, text, names):
    assert {row[1] for row in search(warehouse, text=text)} == names


def test_run_and_limit(warehouse):
    run_b = db.connect_readonly(warehouse).execute("SELECT run_id FROM run WHERE name = 'b'").fetchone()[0]
    assert search(warehouse, text="Flash", run_id=run_b) == [("b", "FlashAttentionScore", 1, 2, 0, 2)]
    assert search(warehouse, text="Flash", limit=1) == [("b", "FlashAttentionScore", 1, 2, 0, 2)]


def test_force_reingest_counts_once(runner, warehouse, inputs):
    before = search(warehouse, text="Flash")
    ingest(runner, warehouse, inputs["a"], "a", "--force")
    ingest(runner, warehouse, inputs["b_kernels"], "b", "--force")
    assert search(warehouse, text="Flash") == before
    index_is_exact(warehouse)


def test_a_replaced_input_takes_its_uses_with_it(runner, warehouse, inputs):
    # the trace of run a changes at the same path: its old source is forgotten once the new one is in
    trace(inputs["a"], {GRAD: 5})
    ingest(runner, warehouse, inputs["a"], "a")
    assert search(warehouse, text="Flash") == [
        ("a", GRAD, 5, 0, 0, 1),
        ("b", "FlashAttentionScore", 1, 2, 0, 2),
    ]
    # MatMul and the long name are still strings, but no input uses them: not answers
    assert search(warehouse, text="MatMul") == [("b", "MatMulV2", 0, 1, 0, 1)]
    conn = db.connect_readonly(warehouse)
    assert conn.execute("SELECT count(*) FROM name_use WHERE input_source_id NOT IN (SELECT id FROM source)"
                        ).fetchone() == (0,)
    conn.close()
    index_is_exact(warehouse)


def test_parts_give_the_same_answers(tmp_path, inputs, monkeypatch):
    monkeypatch.setattr(ingest_frame, "MIN_PART_BYTES", 0)  # every file through a worker's part
    answers = []
    for jobs in (1, 2):
        path = tmp_path / f"jobs{jobs}.db"
        conn = db.connect(path)
        ingest_frame.ingest_paths(conn, list(inputs.values()), jobs=jobs)
        conn.close()
        index_is_exact(path)
        answers.append(search(path, text="a"))  # under 3 characters: every name holding an 'a'
    assert answers[0] == answers[1]
    assert len(answers[0]) == 6  # 5 names, one of them in two runs (each input its own run here)


def test_a_warehouse_made_before_0012_gets_the_index_and_the_counts(warehouse_path):
    conn = sqlite3.connect(warehouse_path, isolation_level=None)
    db.migrate(conn, migrations=db.available_migrations()[:11])
    with warehouse_rows.bound(conn):
        for _ in range(2):
            warehouse_rows.SliceFactory(name="FlashAttentionScore")
        warehouse_rows.KernelFactory(name="FlashAttentionScore")
        warehouse_rows.PytorchApiFactory(name="npu_fusion_attention_FlashAttention")
        warehouse_rows.CannApiFactory(name="aclnnFlashAttentionScore")
        warehouse_rows.PytorchApiFactory(name="aten::add")
    assert [m.version for m in db.migrate(conn, migrations=db.available_migrations()[:12])] == [12]
    conn.close()
    index_is_exact(warehouse_path)
    # each slice factory's thread is an input of its own: the name is used by 3 inputs of the run
    assert search(warehouse_path, text="flashattention") == [
        ("run", "FlashAttentionScore", 2, 1, 0, 3),
        ("run", "aclnnFlashAttentionScore", 0, 0, 1, 1),
        ("run", "npu_fusion_attention_FlashAttention", 0, 0, 1, 1),
    ]


def test_a_name_over_the_string_bound_is_kept_but_not_interned(runner, warehouse_path, tmp_path, monkeypatch):
    monkeypatch.setenv("WAREHOUSE_MAX_STRING_BYTES", "64")
    long = "FlashAttentionScore" * 4  # 76 bytes
    path = KernelDetailsFactory(path=tmp_path / "k" / "kernel_details.csv",
                                rows=[KernelRowFactory(name=long), KernelRowFactory(name="FlashAttentionScore")]).path
    ingest(runner, warehouse_path, path, "k")
    assert [row[1:] for row in search(warehouse_path, text="Flash")] == [("FlashAttentionScore", 0, 1, 0, 1)]
    conn = db.connect_readonly(warehouse_path)
    assert conn.execute("SELECT count(*) FROM kernel WHERE name = ?", (long,)).fetchone() == (1,)
    conn.close()


def test_the_cli_answers(runner, warehouse):
    result = runner.invoke(cli, ["query", "search_names", "--db", str(warehouse), "-p", "text=Grad",
                                 "--format", "csv"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[1].split(",")[1:] == [GRAD, "2", "0", "0", "1"]


def test_datasette_search_box_on_the_string_table(warehouse):
    # `warehouse datasette` serves the file immutable: it folds the write-ahead log in first, so the
    # rows of a writer that has not checkpointed are there too (they were missing once: 404)
    with datasette_server(warehouse) as url:
        with urllib.request.urlopen(f"{url}/string.json?_search=FlashAttention&_shape=objects", timeout=60) as response:
            assert response.status == 200
            rows = json.loads(response.read())["rows"]
    assert {row["value"] for row in rows} == {LONG, GRAD, "FlashAttentionScore"}


@pytest.mark.parametrize(
    "text,found",
    (
        ("ab" * 500, True),  # 1,000 characters: SQLite held 560 MB for 7 s before the index was asked for 16
        ("ba" * 150 + "c", True),  # 301 characters: the first 256 are matched
        ("ab" * 127 + "ac", False),  # the 256th character is matched
        ("ab" * 8 + "c", False),  # the index is asked for the first 16; the 17th is matched
    ),
)
def test_a_long_text_against_a_planted_1_mib_name_is_bounded_in_sqlites_memory(tmp_path, text, found):
    warehouse = planted_warehouse(tmp_path)
    memory.sqlite_peak(reset=True)
    before = memory.sqlite_peak()
    rows = search(warehouse, text=text)
    assert memory.sqlite_peak() - before < 64 * 2**20
    assert rows == ([("planted", PLANTED, 1, 0, 0, 1)] if found else [])
