"""End to end: ``warehouse serve`` as a real process on a free loopback port, called over HTTP."""

from __future__ import annotations

import concurrent.futures
import json
import urllib.error
import urllib.request

import pytest

from server_process import served

STARTUP_TIMEOUT_S = 30
REQUEST_TIMEOUT_S = 10


@pytest.fixture
def server(served_warehouse):
    """The server on port 0 (the OS picks a free one); its URL read from the line it prints once listening."""
    with _serving(served_warehouse, threads=4) as running:
        yield running.url


def _serving(served_warehouse, threads: int):
    """A running ``warehouse serve`` with a token and a short time limit (for the runaway query below)."""
    return served(served_warehouse["path"], "--token", "t0k3n", "--threads", str(threads),
                  env={"WAREHOUSE_TIME_LIMIT_S": "0.5"}, timeout_s=STARTUP_TIMEOUT_S)


def call(url: str, *, token: str | None = "t0k3n", body: dict | None = None) -> tuple[int, str, bytes]:
    request = urllib.request.Request(url, data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=REQUEST_TIMEOUT_S) as response:
            return response.status, response.headers.get_content_type(), response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers.get_content_type(), exc.read()


def test_served_over_http(server, served_warehouse):
    status, kind, body = call(f"{server}/health")
    assert (status, kind, json.loads(body)["status"]) == (200, "application/json", "ok")

    status, _, body = call(f"{server}/health", token=None)
    assert (status, json.loads(body)["error"]["code"]) == (401, "unauthorized")

    url = f"{server}/queries/timeline_slices?thread_id={served_warehouse['thread_id']}&start=0&end=1000&_limit=3"
    status, _, body = call(url)
    page = json.loads(body)
    assert (status, [r["name"] for r in page["rows"]], page["next_offset"]) == (200, ["op0", "op1", "op2"], 3)

    status, kind, body = call(f"{server}/queries/top_kernels?_format=csv")
    assert (status, kind) == (200, "text/csv")
    assert body.decode().splitlines()[1] == "1,Add,aic,2,300,150,200,0.5"

    # hostile SQL gets a 4xx and the server keeps serving
    status, _, body = call(f"{server}/sql", body={"sql": "ATTACH DATABASE '/tmp/x.db' AS x"})
    assert (status, json.loads(body)["error"]["code"]) == (400, "unsafe_sql")
    runaway = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT max(i) AS m FROM n"
    status, _, body = call(f"{server}/sql", body={"sql": runaway})
    assert (status, json.loads(body)["error"]["code"]) == (400, "time_limit")
    status, _, body = call(f"{server}/sql", body={"sql": "SELECT count(*) AS n FROM kernel"})
    assert (status, json.loads(body)["rows"]) == (200, [{"n": 3}])


def test_a_busy_server_does_not_log_a_line_per_queued_request(served_warehouse):
    with _serving(served_warehouse, threads=1) as running:
        with concurrent.futures.ThreadPoolExecutor(16) as clients:
            statuses = list(clients.map(lambda _: call(f"{running.url}/queries/top_kernels")[0], range(64)))
        said = running.stop()
    assert statuses == [200] * 64
    assert "queue depth" not in said, said


def test_serve_mistakes_are_one_line_errors(runner, served_warehouse, tmp_path):
    import socket

    from warehouse.cli import cli

    missing = runner.invoke(cli, ["serve", "--db", str(tmp_path / "missing.db")])
    assert missing.exit_code == 1 and "no such warehouse" in missing.output
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        busy = runner.invoke(cli, ["serve", "--db", str(served_warehouse["path"]), "--port", str(port)])
    assert busy.exit_code == 1
    assert busy.output.startswith(f"Error: cannot listen on 127.0.0.1:{port}: ")
