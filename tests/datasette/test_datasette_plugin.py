"""The plugin's hooks through Datasette's test client: canned queries from the registry,
metadata from the migrations, SQL functions, page routes; other databases left alone."""

from __future__ import annotations

import asyncio
import html
import json
import re
import sqlite3
import urllib.parse

import pytest
from datasette.app import Datasette

from datasette_plugins import canned, cells, functions, pages
from factories import datasette_rows
from warehouse import db, queries
from warehouse.schema_docs import read_docs

DB = "profile"


def test_every_named_query_is_a_canned_query_with_title_and_parameters(get):
    listed = {q["name"]: q for q in get(f"/{DB}.json").json()["queries"]}
    assert set(listed) == set(queries.catalog())
    for name, query in queries.catalog().items():
        assert listed[name]["title"] == query.title
        assert listed[name]["params"] == [p.name for p in query.params]
        assert html.escape(query.description) in listed[name]["description_html"]


def test_canned_query_flags_the_slow_rank(get):
    rows = get(f"/{DB}/slow_ranks.json?_shape=array").json()
    flagged = {(r["rank_id"], r["step_id"]): r["ratio"] for r in rows if r["flagged"]}
    assert flagged == {(datasette_rows.SLOW_RANK, 1): 1.8, (datasette_rows.SLOW_RANK, 2): 1.8}


def test_canned_query_parameters_arrive_as_text_and_are_typed(get):
    """A text :start compared with ts + dur would match nothing: the canned SQL casts it."""
    start = datasette_rows.EPOCH_NS + 500_000
    end = datasette_rows.EPOCH_NS + 5_000_000
    rows = get(f"/{DB}/timeline_slices.json?_shape=array&thread_id=1&start={start}&end={end}&min_dur=").json()
    assert [r["name"] for r in rows] == ["ProfilerStep#1", "aten::linear", "aten::matmul"]


def test_canned_query_defaults_fill_empty_parameters(get):
    """threshold (default 1.2) left empty flags rank 2; given as 2.0 it flags nothing."""
    default = get(f"/{DB}/slow_ranks.json?_shape=array&threshold=").json()
    strict = get(f"/{DB}/slow_ranks.json?_shape=array&threshold=2.0").json()
    assert sum(r["flagged"] for r in default) == 2
    assert sum(r["flagged"] for r in strict) == 0


def test_typed_sql_keeps_the_text_and_replaces_only_placeholders():
    query = queries.Query(
        name="q", view="v", path=None, title="t", description="d",
        params=(queries.Param("limit", "integer", False, 20, "m"),
                queries.Param("name", "text", False, "it's", "m"),
                queries.Param("on", "boolean", True, None, "m")),
        columns=(queries.Column("a", "m"),),
        sql="-- :limit in a comment\nselect a from t where b = ':name' and c = :name and d = :on limit :limit",
    )
    assert canned.typed_sql(query) == (
        "-- :limit in a comment\nselect a from t where b = ':name' and c = coalesce(nullif(:name, ''), 'it''s') "
        "and d = case when lower(nullif(:on, '')) in ('1', 'true', 'yes', 'on') then 1 "
        "when lower(nullif(:on, '')) in ('0', 'false', 'no', 'off') then 0 end "
        "limit coalesce(cast(nullif(:limit, '') as integer), 20)"
    )


def test_table_and_column_descriptions_come_from_the_migrations_and_the_view_files(get):
    docs = read_docs()
    tables = get("/-/metadata.json").json()["databases"][DB]["tables"]
    assert tables["step"]["description"] == docs["step"].description
    assert tables["step"]["columns"]["start_ns"] == docs["step"].columns["start_ns"]
    # a view's descriptions are its file's header (warehouse/model/views/slice.sql)
    assert tables["slice"]["description"].startswith("Every duration event of the timeline")
    assert tables["slice"]["columns"]["name"] == "Name of the slice (string table), NULL when unnamed."
    assert "name_id" not in tables["slice"]["columns"]
    page = get(f"/{DB}/step").text
    assert docs["step"].columns["end_ns"] in page
    # storage tables sit under "hidden tables", their views in the list
    assert tables["_slice"]["hidden"] and not tables["slice"]["hidden"]


def test_database_page_links_every_picture_page(get):
    page = get(f"/{DB}").text
    for picture in pages.PAGES:
        assert (f'href="/-/warehouse/{DB}/{picture.slug}"' in page) == pages.available(picture)
    # once in the description, once in the database's action menu
    assert page.count('href="/-/warehouse/profile/steps"') == 2


@pytest.mark.parametrize("function", functions.FUNCTIONS, ids=lambda f: f.name)
def test_sql_function_does_what_its_documentation_says(get, function):
    sql = urllib.parse.quote(f"select {function.example}")
    rows = get(f"/{DB}.json?sql={sql}&_shape=array").json()
    assert [list(row.values()) for row in rows] == [[function.result]]


@pytest.mark.parametrize(
    "expression,expected",
    (
        ("format_ns(999)", "999 ns"),
        ("format_ns(1000)", "1.000 us"),
        ("format_ns(-2500000000)", "-2.500 s"),
        ("format_bytes(1023)", "1023 B"),
        ("format_bytes(1024)", "1.0 KiB"),
        ("format_bytes(3221225472)", "3.0 GiB"),
        ("pct(5, 0)", None),
        ("ns_to_ms(null)", None),
        ("ns_to_ms('abc')", None),  # text that is no number: NULL, as SQLite's math functions
        ("shorten('short', 10)", "short"),
        ("(select string_value(name_id) from _slice where depth = 2)", "aten::matmul"),
        ("string_value(-1)", None),
        ("(select median(total_allocated_bytes) from memory_record where rank_id = 1)", 1.5 * 2**30),
        ("(select percentile(dur, 100) from _slice)", 10_000_000.0),
    ),
)
def test_sql_function_edge_cases(get, expression, expected):
    sql = urllib.parse.quote(f"select {expression} as result")
    assert get(f"/{DB}.json?sql={sql}&_shape=array").json() == [{"result": expected}]


def page_config(text: str) -> dict:
    """The configuration a page hands its script (window.WAREHOUSE)."""
    return json.loads(re.search(r"window\.WAREHOUSE = (\{.*?\});</script>", text)[1])


def test_pages_carry_the_last_analysis_and_null_before_any(get, profile_path, tmp_path):
    """The steps page names the slow ranks of the last `warehouse analyze` (as the report does): its
    config carries that analysis, null on a warehouse never analysed (the page says to run it)."""
    analysis = page_config(get(f"/-/warehouse/{DB}/steps").text)["analysis"]
    with sqlite3.connect(profile_path) as conn:
        assert (analysis["id"], analysis["finding_count"]) == conn.execute(
            "SELECT max(analysis_run_id), count(*) FROM finding").fetchone()
    fresh = tmp_path / "fresh.db"
    db.connect(fresh).close()
    page = asyncio.run(Datasette(immutables=[str(fresh)]).client.get("/-/warehouse/fresh/steps"))
    assert page_config(page.text)["analysis"] is None


def test_pages_answer_for_warehouses_only(get):
    page = get(f"/-/warehouse/{DB}/steps")
    assert page.status_code == 200
    assert '"page": "steps"' in page.text
    assert get(f"/-/warehouse/{DB}/nosuchpage").status_code == 404
    assert get("/-/warehouse/nosuchdb/steps").status_code == 404
    script = get("/-/warehouse/static/echarts.min.js")
    assert script.status_code == 200
    assert "echarts" in script.text[:2000]


def test_other_databases_keep_their_own_tables_and_queries(tmp_path):
    """A non-warehouse SQLite file with a table named source gets no canned query,
    description, pages nor unit tooltips; the SQL functions still work there."""
    path = tmp_path / "other.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE source (id INTEGER, dur INTEGER)")
    conn.execute("INSERT INTO source VALUES (1, 1500)")
    conn.commit()
    conn.close()
    ds = Datasette([str(path)])

    def get(url):
        return asyncio.run(ds.client.get(url))

    assert get("/other.json").json()["queries"] == []
    assert "other" not in get("/-/metadata.json").json().get("databases", {})
    assert get("/-/warehouse/other/steps").status_code == 404
    assert "wh-unit" not in get("/other/source").text
    assert get("/other.json?sql=select+format_ns(1500)+as+t&_shape=array").json() == [{"t": "1.500 us"}]


@pytest.mark.parametrize(
    "column,value,expected",
    (
        ("ts", datasette_rows.EPOCH_NS + 1_500, "2023-11-14T22:13:20.000001500Z"),
        ("ts", 2_500, "2.500 us"),  # a clock started with the run, not the epoch
        ("allocation_ts", datasette_rows.EPOCH_NS, "2023-11-14T22:13:20.000000000Z"),
        ("dur", 1_234_567, "1.235 ms"),
        ("total_ns", 3_000_000_000, "3.000 s"),
        ("peak_allocated_bytes", 3 * 2**30, "3.0 GiB"),
        ("rx_bytes_per_s", 2**31, "2.0 GiB/s"),
        ("duration_us", 12.5, "12.500 us"),
        ("ratio", 0.37283684394130223, "0.3728"),  # a fraction reads rounded, never rescaled
        ("efficiency", 1.8, "1.8"),
        ("cycles", 123456.789, "123457"),
        ("attainable", 64.0, None),  # a whole number reads well as it is
        ("rank_id", 3, None),
        ("dur", "text", None),
    ),
)
def test_readable_units_by_column_name(column, value, expected):
    assert cells.readable(column, value) == expected


def test_table_cells_show_readable_units_with_the_stored_value_on_hover(get):
    page = get(f"/{DB}/step?rank_id=2&step_id=1").text
    assert '<span class="wh-unit" title="1700000000018000000">2023-11-14T22:13:20.018000000Z</span>' in page
    result = get(f"/{DB}/memory_peak?rank_id=1").text
    assert '<span class="wh-unit" title="3221225472">3.0 GiB</span>' in result
    # JSON keeps the stored integers
    assert get(f"/{DB}/memory_peak.json?_shape=array&rank_id=1").json()[0]["peak_allocated_bytes"] == 3 * 2**30


def test_the_installed_package_registers_the_plugin(get):
    """Through the ``datasette`` entry point of pyproject.toml: no --plugins-dir needed."""
    plugins = {p["name"]: p for p in get("/-/plugins.json").json()}
    assert set(plugins["ascend-warehouse"]["hooks"]) == {
        "asgi_wrapper", "canned_queries", "database_actions", "get_metadata", "handle_exception",
        "prepare_connection", "prepare_jinja2_environment", "register_routes", "render_cell"}


@pytest.mark.parametrize("page", pages.PAGES, ids=lambda p: p.slug)
def test_pages_load_nothing_from_outside(get, page):
    """Offline: every script and stylesheet comes from this server's vendored files."""
    html_text = get(f"/-/warehouse/{DB}/{page.slug}").text
    sources = re.findall(r'<(?:script|link)[^>]+(?:src|href)="([^"]+)"', html_text)
    assert f"/-/warehouse/static/{page.slug}.js" in sources
    assert all(source.startswith("/") and not source.startswith("//") for source in sources)
    assert get(f"/-/warehouse/static/{page.slug}.js").status_code == 200
