"""The REST API through Flask's test client: every route, paging, CSV, errors, the token."""

from __future__ import annotations

import csv
import io
import time

import pytest
from openapi_spec_validator import validate

from service import create_app, results
from warehouse import db, queries

API = "/api/v1"


def error_of(response) -> tuple[int, str]:
    body = response.get_json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}
    return response.status_code, body["error"]["code"]


def test_config_layers(monkeypatch, served_warehouse):
    monkeypatch.setenv("WAREHOUSE_DEFAULT_LIMIT", "7")
    monkeypatch.setenv("WAREHOUSE_TOKEN", '"from-env"')
    app = create_app({"TOKEN": "from-test"})
    assert (app.config["DEFAULT_LIMIT"], app.config["TOKEN"], app.testing) == (7, "from-test", False)


def test_health(client):
    response = client.get(f"{API}/health")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok", "schema_version": db.available_migrations()[-1].version,
                                   "queries": len(queries.catalog())}


def test_health_without_a_warehouse_is_a_json_503(tmp_path):
    client = create_app({"DATABASE": str(tmp_path / "missing.db")}).test_client()
    assert error_of(client.get(f"{API}/health")) == (503, "no_warehouse")


def test_openapi_document_validates_and_lists_every_query(client):
    document = client.get(f"{API}/openapi.json").get_json()
    validate(document)
    for name in queries.catalog():
        assert f"/queries/{name}" in document["paths"]
    assert {"/health", "/openapi.json", "/sources", "/queries", "/queries/{name}", "/sql"} <= set(document["paths"])
    slices = document["paths"]["/queries/timeline_slices"]["get"]
    start = next(p for p in slices["parameters"] if p["name"] == "start")
    assert (start["required"], start["schema"]["type"]) == (True, "integer")
    links = document["paths"]["/queries/interconnect_bandwidth"]["get"]["parameters"]
    assert next(p for p in links if p["name"] == "kind")["schema"] == {
        "type": "string", "enum": ["roce", "nic", "hccs", "pcie"], "default": "roce"}


def test_openapi_document_has_every_route_of_the_app(app, client):
    document = client.get(f"{API}/openapi.json").get_json()
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith(API):
            path = rule.rule[len(API):].replace("<", "{").replace(">", "}")
            methods = {m.lower() for m in rule.methods - {"HEAD", "OPTIONS"}}
            assert methods <= set(document["paths"].get(path, {})), rule.rule


def test_sources(client):
    sources = client.get(f"{API}/sources").get_json()["sources"]
    failed = [s for s in sources if s["status"] == "failed"]
    assert [s["error"] for s in failed] == ["/runs/bad.json: byte 12: bad JSON"]
    assert all(s["status"] == "ok" for s in sources if s not in failed)
    # every input names its run
    assert all(isinstance(s["run_id"], int) for s in sources)


def test_catalog(client):
    catalog = {q["name"]: q for q in client.get(f"{API}/queries").get_json()["queries"]}
    assert set(catalog) == set(queries.catalog())
    top = catalog["top_kernels"]
    assert top["view"] == "kernels"
    assert [(p["name"], p["type"], p["required"], p["default"]) for p in top["params"]] == [
        ("run_id", "integer", False, None), ("rank_id", "integer", False, None), ("limit", "integer", False, 20)]
    assert [c["name"] for c in top["columns"]][:4] == ["run_id", "name", "op_class", "count"]


def test_run_query_with_text_params(client, served_warehouse):
    response = client.get(f"{API}/queries/timeline_slices",
                          query_string={"thread_id": served_warehouse["thread_id"], "start": 120, "end": 330})
    body = response.get_json()
    assert response.status_code == 200
    assert body["columns"] == ["id", "ts", "dur", "name", "category", "depth", "parent_id"]
    assert [(r["name"], r["ts"]) for r in body["rows"]] == [("op1", 100), ("op2", 200), ("op3", 300)]
    assert body["next_offset"] is None


def test_paging(client, served_warehouse):
    args = {"thread_id": served_warehouse["thread_id"], "start": 0, "end": 1000, "_limit": 2}
    pages, offset = [], 0
    while offset is not None:
        body = client.get(f"{API}/queries/timeline_slices", query_string={**args, "_offset": offset}).get_json()
        pages.append([r["name"] for r in body["rows"]])
        offset = body["next_offset"]
    assert pages == [["op0", "op1"], ["op2", "op3"], ["op4"]]


def test_csv(client):
    response = client.get(f"{API}/queries/top_kernels", query_string={"rank_id": 0, "_format": "csv"})
    assert response.status_code == 200 and response.mimetype == "text/csv"
    table = list(csv.reader(io.StringIO(response.get_data(as_text=True))))
    assert table[0] == ["run_id", "name", "op_class", "count", "total_ns", "avg_ns", "max_ns", "ratio"]
    assert [(r[1], r[4]) for r in table[1:]] == [("MatMul", "300"), ("Add", "200")]


@pytest.mark.parametrize(
    "url,status,code",
    (
        ("/queries/nope", 404, "not_found"),
        ("/queries/insight_op_run?source_id=1", 404, "not_found"),  # internal: the insight protocol's
        ("/queries/top_kernels?rank_id=zero", 400, "bad_parameter"),
        ("/queries/top_kernels?colour=red", 400, "bad_parameter"),
        ("/queries/top_kernels?rank_id=1&rank_id=2", 400, "bad_parameter"),
        ("/queries/timeline_slices?thread_id=1", 400, "bad_parameter"),
        ("/queries/top_kernels?_limit=0", 400, "bad_parameter"),
        ("/queries/top_kernels?_limit=many", 400, "bad_parameter"),
        ("/queries/top_kernels?_offset=-1", 400, "bad_parameter"),
        ("/queries/top_kernels?_format=xml", 400, "bad_parameter"),
        ("/queries/interconnect_bandwidth?kind=infiniband", 400, "bad_parameter"),
        ("/no/such/route", 404, "not_found"),
    ),
)
def test_caller_mistakes_are_json_4xx(client, url, status, code):
    assert error_of(client.get(API + url)) == (status, code)


def test_wrong_method_is_json_405(client):
    response = client.get(f"{API}/sql")
    assert error_of(response) == (405, "method_not_allowed")
    assert "POST" in response.headers["Allow"]


def test_message_names_the_bad_parameter(client):
    response = client.get(f"{API}/queries/timeline_slices", query_string={"thread_id": 1, "start": "1e3x", "end": 5})
    assert response.get_json()["error"]["message"] == "parameter start: '1e3x' is not an integer"


def test_sql(client):
    response = client.post(f"{API}/sql", json={"sql": "SELECT name, dur FROM kernel WHERE rank_id = :r ORDER BY dur",
                                               "params": {"r": 0}})
    assert response.get_json() == {"columns": ["name", "dur"], "next_offset": None,
                                   "rows": [{"name": "Add", "dur": 200}, {"name": "MatMul", "dur": 300}]}


@pytest.mark.parametrize(
    "sql,rows",
    (
        # any column name, in the order selected; a BLOB as hex; text as itself
        ("SELECT 1 AS \"count(*)\", x'00ff' AS \"a b\", 'é😀' AS class, NULL AS _x, 0.5 AS \"1\"",
         [{"count(*)": 1, "a b": "00ff", "class": "é😀", "_x": None, "1": 0.5}]),
        # a repeated name keeps its first place and its last value, as a dict does
        ("SELECT 1 AS a, 2 AS b, 3 AS a", [{"a": 3, "b": 2}]),
        ("SELECT 1 AS a WHERE 0", []),
    ),
)
def test_sql_rows_are_objects_of_the_columns(client, sql, rows):
    response = client.post(f"{API}/sql", json={"sql": sql})
    assert response.content_type == "application/json"
    assert response.get_json()["rows"] == rows
    assert [list(row) for row in response.get_json()["rows"]] == [list(row) for row in rows]


def test_a_long_fetch_does_not_stall_other_requests(client):
    # a query still fetching holds the turn; the next one waits for it only briefly
    with results.FETCHING:
        started = time.perf_counter()
        assert client.post(f"{API}/sql", json={"sql": "SELECT 1 AS one"}).get_json()["rows"] == [{"one": 1}]
    assert time.perf_counter() - started < 1


def test_sql_paging_and_csv(client):
    response = client.post(f"{API}/sql?_format=csv&_limit=1&_offset=1",
                           json={"sql": "SELECT name FROM kernel ORDER BY id"})
    assert response.get_data(as_text=True) == "name\nAdd\n"
    assert response.headers["X-Next-Offset"] == "2"
    body = client.post(f"{API}/sql", json={"sql": "SELECT id FROM kernel ORDER BY id", "_limit": 2}).get_json()
    assert (len(body["rows"]), body["next_offset"]) == (2, 2)


@pytest.mark.parametrize(
    "sql,code",
    (
        ("DELETE FROM kernel", "unsafe_sql"),
        ("DROP TABLE kernel", "unsafe_sql"),
        ("SELECT 1; SELECT 2", "unsafe_sql"),
        ("ATTACH DATABASE '/tmp/x.db' AS x", "unsafe_sql"),
        ("PRAGMA user_version = 5", "unsafe_sql"),
        ("SELECT load_extension('/tmp/evil.so')", "unsafe_sql"),
        ("WITH d AS (DELETE FROM kernel RETURNING id) SELECT id FROM d", "unsafe_sql"),
        ("SELEC 1", "unsafe_sql"),
        ("SELECT nope FROM kernel", "query_failed"),
        ("SELECT :missing", "query_failed"),
    ),
)
def test_hostile_or_bad_sql_is_refused(client, sql, code):
    assert error_of(client.post(f"{API}/sql", json={"sql": sql})) == (400, code)
    # and the server goes on serving
    assert client.get(f"{API}/health").status_code == 200


def test_the_authorizer_refuses_what_the_lint_lets_through(client):
    # sqlglot sees a plain SELECT; the authorizer refuses the pragma (optimize may run ANALYZE)
    response = client.post(f"{API}/sql", json={"sql": "SELECT * FROM pragma_optimize"})
    assert error_of(response) == (400, "unsafe_sql")


def test_runaway_query_is_stopped_by_the_time_limit(served_warehouse):
    client = create_app({"DATABASE": str(served_warehouse["path"]), "TIME_LIMIT_S": 0.2}).test_client()
    sql = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT max(i) AS m FROM n"
    assert error_of(client.post(f"{API}/sql", json={"sql": sql})) == (400, "time_limit")
    assert client.get(f"{API}/health").status_code == 200


@pytest.mark.parametrize(
    "body",
    ({"sql": 5}, {"query": "SELECT 1"}, {"sql": "SELECT 1", "params": [1]}, {"sql": "SELECT :a", "params": {"a": [1]}}),
)
def test_sql_body_must_be_the_documented_object(client, body):
    assert error_of(client.post(f"{API}/sql", json=body)) == (400, "bad_request")


def test_oversized_sql_body_is_a_json_413(client):
    response = client.post(f"{API}/sql", json={"sql": "SELECT 1 -- " + "x" * 2_000_000})
    assert error_of(response) == (413, "request_entity_too_large")


def test_sql_body_that_is_not_json(client):
    response = client.post(f"{API}/sql", data="SELECT 1", content_type="text/plain")
    assert error_of(response) == (400, "bad_request")


@pytest.mark.parametrize(
    "headers,status",
    (
        ({}, 401),
        ({"Authorization": "Bearer wrong"}, 401),
        ({"Authorization": "Basic s3cret"}, 401),
        ({"Authorization": "Bearer s3cret"}, 200),
    ),
)
def test_token(served_warehouse, headers, status):
    client = create_app({"DATABASE": str(served_warehouse["path"]), "TOKEN": "s3cret"}).test_client()
    for route in ("/health", "/queries", "/openapi.json", "/sources"):
        assert client.get(API + route, headers=headers).status_code == status
    response = client.post(f"{API}/sql", json={"sql": "SELECT 1 AS one"}, headers=headers)
    assert response.status_code == status
    if status == 401:
        assert error_of(response) == (401, "unauthorized")


def test_the_warehouse_is_opened_read_only(client, served_warehouse):
    # even with the lint and the authorizer out of the way, the connection itself cannot write
    with client.application.app_context():
        from service.db import get_db

        conn = get_db()
        with pytest.raises(Exception, match="readonly|read-only|query_only"):
            conn.execute("DELETE FROM kernel")
