"""Service hardening (DESIGN §8): injection through every named-query parameter, path traversal
through every parameter that names a file, oversized bodies, the ad-hoc SQL guards, the token on every route.

The served warehouse also holds a canary table no named query reads: its value showing up
in any answer means an injection reached another table. The warehouse file's bytes are
compared before and after: the service never writes except through ``import/action``.
"""

from __future__ import annotations

import hashlib
import sqlite3

import pytest

from factories.op_profile import CODE_PATH, OpProfileFactory
from service import create_app
from warehouse import ingest, queries

CANARY = "CANARY-7f3a9c"
TOKEN = "s3cr3t-t0ken"
#: strings that would change a query's meaning if they were spliced into its SQL
INJECTIONS = [
    "' OR '1'='1", "1 OR 1=1", "0; DROP TABLE kernel", "x'; DELETE FROM source; --",
    f"' UNION SELECT value FROM canary --", "1 UNION SELECT value FROM canary", "') OR 1=1 --",
    "1); ATTACH DATABASE '/tmp/evil.db' AS evil; --", "%' OR 1=1 --", "\\'; SELECT load_extension('x') --",
    "1e999", "-9223372036854775809", "99999999999999999999999", "\x00", "NaN", "", "😀' --", "*/ SELECT 1 /*",
]
#: names of files that are not the profile's, or are outside every allowed folder
TRAVERSALS = [
    "../../../../etc/passwd", "/etc/passwd", "..\\..\\windows\\win.ini", "%2e%2e/%2e%2e/etc/passwd",
    "....//....//etc/passwd", "/proc/self/environ", "file:///etc/passwd", "matmul.cpp\x00.png", "~/.ssh/id_rsa",
    "a/" * 2000 + "b",
]


def _sha256(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def hardened(served_warehouse, warehouse_db, tmp_path):
    """The factory warehouse plus an operator profile and a canary table; the app with an import root."""
    profile = OpProfileFactory(path=tmp_path / "visualize_data.bin")
    assert ingest.ingest_file(warehouse_db, profile.path).status == "ok"
    warehouse_db.execute("CREATE TABLE canary (value TEXT)")
    warehouse_db.execute("INSERT INTO canary VALUES (?)", (CANARY,))
    root = tmp_path / "import_root"
    root.mkdir()
    (tmp_path / "outside.json").write_text('{"secret": "%s"}' % CANARY)
    (root / "link.json").symlink_to(tmp_path / "outside.json")
    # a limit no named query comes near on this small warehouse, even on a loaded machine (the slowest
    # take ~0.3 CPU-s); the runaway query's test sets its own
    app = create_app({"DATABASE": str(served_warehouse["path"]), "IMPORT_ROOT": str(root), "TIME_LIMIT_S": 10.0,
                      "MAX_CONTENT_LENGTH": 100_000})
    return {"app": app, "client": app.test_client(), "path": served_warehouse["path"], "root": root,
            "outside": tmp_path / "outside.json"}


def _valid(param: queries.Param):
    """A value of the parameter's type (its default or first choice when it has one)."""
    if param.choices:
        return param.choices[0]
    if param.default is not None:
        return str(param.default)
    return {"integer": "1", "real": "1.5", "boolean": "true", "text": "x"}[param.type]


def test_injection_through_every_named_query_parameter_is_a_4xx_or_a_normal_answer(hardened):
    """Every parameter of every named query gets every hostile string (and every file name a
    traversal would read: those parameters name files only inside the warehouse); nothing leaks,
    nothing changes."""
    client, before = hardened["client"], _sha256(hardened["path"])
    tried = 0
    for query in queries.catalog().values():
        for param in query.params:
            for hostile in INJECTIONS + TRAVERSALS + [str(hardened["outside"])]:
                args = {p.name: _valid(p) for p in query.params if p.required}
                args[param.name] = hostile
                response = client.get(f"/api/v1/queries/{query.name}", query_string=args)
                tried += 1
                assert response.status_code in (200, 400), (query.name, param.name, hostile, response.json)
                assert CANARY not in response.get_data(as_text=True), (query.name, param.name, hostile)
                if response.status_code == 400:
                    assert response.json["error"]["code"] in ("bad_parameter", "query_failed")
    assert tried > 500
    assert _sha256(hardened["path"]) == before
    conn = sqlite3.connect(hardened["path"])
    assert conn.execute("SELECT count(*) FROM kernel").fetchone()[0] == 3  # the factory's kernels, all there
    conn.close()


def insight(client, command, params, **headers):
    return client.post("/api/v1/insight", json={"id": 1, "moduleName": "source", "type": "request",
                                                "command": command, "params": params}, headers=headers)


@pytest.mark.parametrize("command", ["source/code/file", "source/api/line"])
def test_file_names_in_source_commands_only_read_the_profile(hardened, command):
    """sourceName is looked up in the warehouse: a traversal can only miss, never read the disk."""
    client = hardened["client"]
    ok = insight(client, "source/code/file", {"sourceName": CODE_PATH})
    assert ok.json["result"] is True and "kernel_operator.h" in ok.json["body"]["fileContent"]
    for name in TRAVERSALS + [str(hardened["outside"])]:
        response = insight(client, command, {"sourceName": name, "coreName": "core0.cubecore0"})
        assert response.status_code == 200 and response.json["result"] is False, (name, response.json)
        text = response.get_data(as_text=True)
        assert CANARY not in text and "root:" not in text


def test_import_reads_only_below_the_import_root(hardened):
    """Paths outside the root, symlinks out of it and traversals are refused before anything is read."""
    client, before = hardened["client"], _sha256(hardened["path"])
    refused = TRAVERSALS + [str(hardened["outside"]), "link.json", "../outside.json",
                            str(hardened["root"] / ".." / "outside.json")]
    for given in refused:
        response = insight(client, "import/action", {"path": [given]})
        assert response.status_code == 200 and response.json["result"] is False, (given, response.json)
        assert CANARY not in response.get_data(as_text=True)
    assert _sha256(hardened["path"]) == before  # no source row, failed or not, was written


def test_import_is_refused_without_an_import_root(served_warehouse, tmp_path):
    (tmp_path / "x.json").write_text("[]")
    client = create_app({"DATABASE": str(served_warehouse["path"])}).test_client()
    response = insight(client, "import/action", {"path": [str(tmp_path / "x.json")]})
    assert response.json["result"] is False and "disabled" in response.json["error"]["message"]


@pytest.mark.parametrize("route", ["/api/v1/sql", "/api/v1/insight"])
def test_oversized_bodies_get_a_json_413(hardened, route):
    body = b'{"sql": "SELECT 1", "pad": "' + b"x" * 200_000 + b'"}'
    response = hardened["client"].post(route, data=body, content_type="application/json")
    assert response.status_code == 413
    assert response.json["error"]["code"] == "request_entity_too_large"


@pytest.mark.parametrize("sql", [
    "ATTACH DATABASE '/tmp/evil.db' AS evil",
    "SELECT 1; ATTACH DATABASE '/tmp/evil.db' AS evil",
    "PRAGMA user_version = 99",
    "PRAGMA journal_mode = DELETE",
    "SELECT * FROM pragma_user_version",
    "SELECT load_extension('/tmp/evil.so')",
    "SELECT writefile('/tmp/evil.txt', 'x')",
    "SELECT readfile('/etc/passwd')",
    "SELECT 1; DELETE FROM kernel",
    "SELECT 1 /* hidden */; DROP TABLE kernel",
    "SELECT 1 -- hidden\n; DELETE FROM source",
    "/* a comment */ DELETE FROM kernel",
    "WITH x AS (SELECT 1) DELETE FROM kernel",
    "VACUUM INTO '/tmp/evil.db'",
    "CREATE TEMP TABLE t AS SELECT 1",
    "INSERT INTO kernel SELECT * FROM kernel",
    "REPLACE INTO canary VALUES ('x')",
])
def test_ad_hoc_sql_guards_refuse_what_is_not_one_read(hardened, sql, tmp_path):
    before = _sha256(hardened["path"])
    response = hardened["client"].post("/api/v1/sql", json={"sql": sql})
    assert response.status_code == 400, response.json
    assert response.json["error"]["code"] in ("unsafe_sql", "query_failed")
    assert _sha256(hardened["path"]) == before


def test_a_runaway_recursive_query_is_stopped_by_the_time_limit(hardened):
    hardened["app"].config["TIME_LIMIT_S"] = 1.0
    sql = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT max(i) FROM n"
    response = hardened["client"].post("/api/v1/sql", json={"sql": sql})
    assert response.status_code == 400 and response.json["error"]["code"] == "time_limit"
    assert "1.0 s" in response.json["error"]["message"]
    # and the pooled connection serves the next request normally
    assert hardened["client"].post("/api/v1/sql", json={"sql": "SELECT 2 AS x"}).json["rows"] == [{"x": 2}]


def _routes(app):
    """(method, url) of every route of the app, its URL variables filled with a plausible value."""
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        url = rule.rule
        for name in rule.arguments:
            url = url.replace(f"<{name}>", "kernel_summary").replace(f"<string:{name}>", "kernel_summary")
        for method in sorted(rule.methods - {"OPTIONS"}):
            yield method, url


def test_the_token_guards_every_route(served_warehouse):
    """With a token configured, every route of the url_map refuses without it (or with a wrong one) and accepts with it."""
    app = create_app({"DATABASE": str(served_warehouse["path"]), "TOKEN": TOKEN})
    client = app.test_client()
    routes = list(_routes(app))
    assert len(routes) >= 8
    bodies = {"/api/v1/sql": {"sql": "SELECT 1"},
              "/api/v1/insight": {"id": 1, "moduleName": "m", "type": "request", "command": "unit/flows"}}
    for method, url in routes:
        body = bodies.get(url) if method == "POST" else None
        for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": TOKEN},
                        {"Authorization": f"Basic {TOKEN}"}):
            refused = client.open(url, method=method, json=body, headers=headers)
            assert refused.status_code == 401, (method, url, headers)
        accepted = client.open(url, method=method, json=body, headers={"Authorization": f"Bearer {TOKEN}"})
        assert accepted.status_code != 401 and accepted.status_code < 500, (method, url, accepted.status_code)


def test_the_service_binds_loopback_by_default_and_opens_the_warehouse_read_only(hardened):
    from service.db import get_db
    from warehouse.cli import serve

    assert [p.default for p in serve.params if p.name == "host"] == ["127.0.0.1"]
    with hardened["app"].app_context():
        conn = get_db()
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            conn.execute("DELETE FROM canary")
