"""The named-query registry: header parsing, the sqlglot checks, parameter conversion."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
import sqlglot

from warehouse import queries
from warehouse.queries import QueryError

GOOD = """\
-- title: Slices by name
-- description: The slices named like the pattern,
--     longest first.
-- param pattern (text, required): Name pattern for LIKE.
-- param min_dur (integer, default 0): Shortest duration kept, in ns.
-- param scale (real, default 1.5): A factor.
-- param deep (boolean, default false): Only slices below the top level.
-- param label (text, default 'n/a'): A label.
-- column id: The slice.
-- column dur: Its duration.
with picked as (
    select id, dur from _slice where dur >= :min_dur and (:deep = 0 or depth > 0) and :scale > 0
        and :label is not null and name_id in (select id from string where value like :pattern)
),

final as (
    select id, dur from picked
)

select id, dur from final order by dur desc
"""


def write(tmp_path, text: str, name: str = "slices_by_name"):
    folder = tmp_path / "timeline"
    folder.mkdir(exist_ok=True)
    path = folder / f"{name}.sql"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("path", sorted(p for p in queries.QUERIES_DIR.glob("*/*.sql") if not p.name.startswith("_")),
                         ids=lambda p: p.stem)
def test_every_query_file_loads(path):
    # parse_file's error names the file, so a broken query fails here with its name
    query = queries.parse_file(path)
    assert query.title and query.description and query.columns


def test_registry_names_are_unique_and_match_files():
    registry = queries.load()
    assert sorted(registry) == sorted(p.stem for p in queries.QUERIES_DIR.glob("*/*.sql") if not p.name.startswith("_"))


def test_header_is_parsed(tmp_path):
    query = queries.parse_file(write(tmp_path, GOOD))
    assert (query.name, query.view, query.title) == ("slices_by_name", "timeline", "Slices by name")
    assert query.description == "The slices named like the pattern, longest first."
    assert [(p.name, p.type, p.required, p.default) for p in query.params] == [
        ("pattern", "text", True, None),
        ("min_dur", "integer", False, 0),
        ("scale", "real", False, 1.5),
        ("deep", "boolean", False, 0),
        ("label", "text", False, "n/a"),
    ]
    assert query.params[1].meaning == "Shortest duration kept, in ns."
    # a boolean binds as 0/1 but the catalog (and OpenAPI) show it as a boolean
    assert query.params[3].describe()["default"] is False
    assert [(c.name, c.meaning) for c in query.columns] == [("id", "The slice."), ("dur", "Its duration.")]
    assert query.sql.startswith("with picked as")


@pytest.mark.parametrize(
    "old,new,message",
    (
        ("-- title: Slices by name\n", "", "header has no title"),
        ("(text, required)", "(string, required)", "has type 'string'"),
        ("(integer, default 0)", "(integer, default zero)", "default: parameter min_dur: 'zero' is not an integer"),
        ("-- column dur: Its duration.\n", "", "output columns ['id', 'dur'] differ from the header's ['id']"),
        ("and :scale > 0", "and :scale > 0 and :extra = 1", "uses undeclared extra"),
        ("and :scale > 0", "", "declares unused scale"),
        ("select id, dur from final order", "select * from final order", "SELECT * is not allowed"),
        ("select id, dur from picked", "select id, dur from picked limit 1), done as (select 1 as x",
         "ends in a CTE named final"),
        ("select id, dur from final order by dur desc", "select id, dur from final; delete from _slice",
         "exactly one SQL statement"),
        ("-- column id:", "-- param scale (real, default 2): Again.\n-- column id:", "parameter declared twice: scale"),
        ("-- column id: The slice.", "-- columns id: The slice.", "header line 9: expected"),
        ("dur >= :min_dur", "printf('%d', dur) >= :min_dur", "SQLite-only"),
    ),
)
def test_broken_query_fails_with_its_file_name(tmp_path, old, new, message):
    assert old in GOOD
    path = write(tmp_path, GOOD.replace(old, new, 1))
    with pytest.raises(QueryError) as caught:
        queries.parse_file(path)
    assert str(caught.value).startswith(f"{path}: ")
    assert message in str(caught.value)


def test_a_broken_file_stops_the_whole_load(tmp_path):
    write(tmp_path, GOOD)
    broken = write(tmp_path, GOOD.replace("-- title: Slices by name\n", ""), name="broken")
    with pytest.raises(QueryError, match=str(broken)):
        queries.load(tmp_path)


def test_duplicate_names_across_folders_are_refused(tmp_path):
    write(tmp_path, GOOD)
    other = tmp_path / "kernels"
    other.mkdir()
    (other / "slices_by_name.sql").write_text(GOOD, encoding="utf-8")
    with pytest.raises(QueryError, match="is also used by"):
        queries.load(tmp_path)


def test_helpers_starting_with_underscore_are_not_published(tmp_path):
    write(tmp_path, GOOD)
    write(tmp_path, "select 1", name="_helper")
    assert list(queries.load(tmp_path)) == ["slices_by_name"]


FINAL_CTE = """final as (
    select id, dur from picked
)

select id, dur from final order by dur desc
"""


def test_an_include_line_is_replaced_by_the_helpers_body(tmp_path):
    helper_folder = tmp_path / "shared"
    helper_folder.mkdir()
    (helper_folder / "_final_by_dur.sql").write_text("-- Helper: the final CTE over picked.\n" + FINAL_CTE,
                                                      encoding="utf-8")
    path = write(tmp_path, GOOD.replace(FINAL_CTE, "-- include: _final_by_dur\n"))
    included = queries.parse_file(path)
    assert included.sql == queries.parse_file(write(tmp_path, GOOD, name="whole")).sql
    assert "include" not in included.sql


@pytest.mark.parametrize(("helper", "message"), [
    (None, "include _final_by_dur: no file named _final_by_dur.sql"),
    ("-- A helper including itself.\nfinal as (select 1)\n-- include: _final_by_dur\n", "include _final_by_dur includes itself (_final_by_dur -> _final_by_dur)"),
])
def test_a_broken_include_names_the_file_and_the_helper(tmp_path, helper, message):
    path = write(tmp_path, GOOD.replace(FINAL_CTE, "-- include: _final_by_dur\n"))
    if helper is not None:
        write(tmp_path, helper, name="_final_by_dur")
    with pytest.raises(QueryError) as caught:
        queries.parse_file(path)
    assert str(caught.value).startswith(f"{path}: {message}")


def test_the_statistics_block_of_the_sum_queries_is_written_once():
    sums = sorted(queries.QUERIES_DIR.glob("cluster/*_sum.sql"))
    assert [p.stem for p in sums] == ["cann_api_sum", "compute_op_sum", "hccl_sum", "mstx_sum"]
    for path in sums:
        text = path.read_text(encoding="utf-8")
        assert "-- include: _duration_statistics" in text and "row_number()" not in text
        assert "row_number() over (partition by run_id, rank_id, step_id, name, core_type order by dur)" in queries.get(path.stem).sql


@pytest.mark.parametrize(
    "type_,text,expected",
    (
        ("integer", "42", 42),
        ("integer", " -7 ", -7),
        ("real", "2.5", 2.5),
        ("real", "3", 3.0),
        ("boolean", "true", 1),
        ("boolean", "No", 0),
        ("boolean", "1", 1),
        ("text", "aten::add", "aten::add"),
        ("integer", None, None),
    ),
)
def test_param_conversion(type_, text, expected):
    value = queries.Param("p", type_, False, None, "").convert(text)
    assert value == expected and type(value) is type(expected)


@pytest.mark.parametrize(
    "type_,text,message",
    (
        ("integer", "1.5", "parameter start: '1.5' is not an integer"),
        ("integer", "ten", "parameter start: 'ten' is not an integer"),
        ("real", "fast", "parameter start: 'fast' is not a real"),
        ("boolean", "maybe", "parameter start: 'maybe' is not a boolean"),
    ),
)
def test_bad_param_values_name_the_param(type_, text, message):
    with pytest.raises(QueryError, match=message):
        queries.Param("start", type_, False, None, "").convert(text)


def test_bind_fills_defaults_and_refuses_unknown_or_missing(tmp_path):
    query = queries.parse_file(write(tmp_path, GOOD))
    assert query.bind({"pattern": "aten%", "min_dur": "10"}) == {
        "pattern": "aten%", "min_dur": 10, "scale": 1.5, "deep": 0, "label": "n/a"}
    with pytest.raises(QueryError, match="parameter pattern is required"):
        query.bind({"min_dur": "10"})
    with pytest.raises(QueryError, match="unknown parameter colour"):
        query.bind({"pattern": "x", "colour": "red"})


def test_text_params_are_converted_before_binding(warehouse_db):
    """Bound as text, ':start' against 'ts + dur' matches nothing in SQLite; converted, it matches."""
    warehouse_db.execute("INSERT INTO source (id, path, sha256, size_bytes, status, ingested_at) "
                         "VALUES (1, 'x', 'x', 1, 'ok', 'now')")
    warehouse_db.execute("INSERT INTO process (id, source_id, pid) VALUES (1, 1, '1')")
    warehouse_db.execute("INSERT INTO thread (id, process_id, source_id, tid, max_dur) VALUES (1, 1, 1, '1', 500)")
    warehouse_db.execute("INSERT INTO _slice (thread_id, ts, dur, source_id) VALUES (1, 100, 500, 1)")
    query = queries.get("timeline_slices")
    raw = warehouse_db.execute(query.sql, {"thread_id": "1", "start": "300", "end": "400", "min_dur": "0"})
    assert raw.fetchall() == []
    columns, rows = query.run(warehouse_db, {"thread_id": "1", "start": "300", "end": "400"})
    assert [row[columns.index("ts")] for row in rows] == [100]


def test_count_is_the_number_of_rows_run_gives_with_the_same_converted_params(warehouse_db):
    """A named query counted in SQL (its rows not fetched) counts what run() returns, its text
    parameters converted as run() converts them."""
    warehouse_db.execute("INSERT INTO source (id, path, sha256, size_bytes, status, ingested_at) "
                         "VALUES (1, 'x', 'x', 1, 'ok', 'now')")
    warehouse_db.execute("INSERT INTO process (id, source_id, pid) VALUES (1, 1, '1')")
    warehouse_db.execute("INSERT INTO thread (id, process_id, source_id, tid, max_dur) VALUES (1, 1, 1, '1', 500)")
    warehouse_db.executemany("INSERT INTO _slice (thread_id, ts, dur, source_id) VALUES (1, ?, 50, 1)",
                             [(ts,) for ts in (100, 200, 300, 900)])
    query = queries.get("timeline_slices")
    for window in ({"start": "150", "end": "400"}, {"start": "0", "end": "1000"}, {"start": "2000", "end": "3000"}):
        _, rows = query.run(warehouse_db, {"thread_id": "1", **window})
        assert query.count(warehouse_db, {"thread_id": "1", **window}) == len(rows)
    assert query.count(warehouse_db, {"thread_id": "1", "start": "150", "end": "400"}) == 2
    commented = dataclasses.replace(query, sql=query.sql + "\n-- a query may end with a comment line")
    assert commented.count(warehouse_db, {"thread_id": "1", "start": "150", "end": "400"}) == 2
    with pytest.raises(QueryError, match="unknown parameter colour"):
        query.count(warehouse_db, {"thread_id": "1", "colour": "red"})


def test_unknown_query_name():
    with pytest.raises(queries.UnknownQuery, match="no query named 'nope'"):
        queries.get("nope")


def test_text_param_with_choices(tmp_path):
    text = GOOD.replace("-- param label (text, default 'n/a'): A label.",
                        "-- param label (text, default 'n/a', one of n/a|x): A label.")
    with pytest.raises(QueryError, match="header line 8: expected"):
        # '/' is not allowed in a choice: the line does not parse
        queries.parse_file(write(tmp_path, text))
    text = GOOD.replace("-- param label (text, default 'n/a'): A label.",
                        "-- param label (text, default 'roce', one of roce|nic|hccs): A label.")
    query = queries.parse_file(write(tmp_path, text))
    label = query.params[-1]
    assert (label.default, label.choices, label.describe()["choices"]) == ("roce", ("roce", "nic", "hccs"), ["roce", "nic", "hccs"])
    assert label.convert("nic") == "nic"
    with pytest.raises(QueryError, match="parameter label: 'ib' is not one of roce, nic, hccs"):
        label.convert("ib")
    bad_default = GOOD.replace("-- param label (text, default 'n/a'): A label.",
                               "-- param label (text, default 'ib', one of roce|nic): A label.")
    with pytest.raises(QueryError, match="default: parameter label: 'ib' is not one of roce, nic"):
        queries.parse_file(write(tmp_path, bad_default))
    not_text = GOOD.replace("(integer, default 0)", "(integer, default 0, one of 0|1)")
    with pytest.raises(QueryError, match="'one of' is for text parameters"):
        queries.parse_file(write(tmp_path, not_text))


def test_docs_queries_md_is_generated_from_the_headers():
    page = Path(__file__).resolve().parent.parent / "docs" / "queries.md"
    assert page.read_text(encoding="utf-8") == queries.markdown(queries.catalog()), (
        "docs/queries.md is stale: run `warehouse queries --format markdown > docs/queries.md`")
    for name, query in queries.registry().items():
        assert (f"\n## {name}\n" in page.read_text(encoding="utf-8")) == query.public, name


def test_internal_queries_are_files_run_by_name_but_not_in_the_catalog(tmp_path):
    write(tmp_path, GOOD)
    internal = tmp_path / "_protocol"
    internal.mkdir()
    (internal / "protocol_rows.sql").write_text(GOOD, encoding="utf-8")
    loaded = queries.load(tmp_path)
    assert {name: query.public for name, query in loaded.items()} == {"slices_by_name": True, "protocol_rows": False}
    # the repository's: the operator-view protocol's queries (service/insight) and warehouse compare's are internal
    registry, catalog = queries.registry(), queries.catalog()
    internal_names = {name for name, query in registry.items() if not query.public}
    assert {registry[name].view for name in internal_names} == {"_insight", "_compare"}
    assert all(name.startswith(registry[name].view[1:] + "_") for name in internal_names)
    assert internal_names.isdisjoint(catalog) and set(catalog) | internal_names == set(registry)
    name = sorted(internal_names)[0]
    with pytest.raises(queries.UnknownQuery, match=f"no query named '{name}'"):
        queries.published(name)


@pytest.mark.parametrize("dialect", ("duckdb", "postgres", "spark"))
def test_every_query_transpiles_to_the_scale_out_engines(dialect):
    # DESIGN §4: queries are transpiled by sqlglot later; nothing in them may be unsupported there
    from sqlglot.errors import ErrorLevel

    for query in queries.registry().values():
        (text,) = sqlglot.transpile(query.sql, read="sqlite", write=dialect, unsupported_level=ErrorLevel.RAISE)
        assert text.upper().startswith(("WITH", "SELECT")), query.name


def test_one_query_is_read_alone_before_the_registry_loads(monkeypatch):
    """`warehouse query NAME` reads one file, not the catalog (about 0.9 s of a tiny query's 1.4 s),
    and its header only: the sqlglot checks are the registry's (their import alone is ~0.13 s)."""
    queries.registry.cache_clear()  # as in a fresh process (the next test loads it again)
    queries._alone.cache_clear()
    parsed = []
    real = queries.parse_file
    monkeypatch.setattr(queries, "parse_file",
                        lambda path, **options: parsed.append((path.name, options)) or real(path, **options))
    alone = queries.get("step_time")
    assert parsed == [("step_time.sql", {"check": False})]
    queries._alone.cache_clear()
    assert alone == queries.registry()["step_time"]  # the same query as the checked catalog's
