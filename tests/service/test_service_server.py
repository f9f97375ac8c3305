"""End to end: ``warehouse serve`` as a real process on a free loopback port, called over HTTP."""

from __future__ import annotations

import concurrent.futures
import contextlib
import json
import os
import re
import selectors
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

STARTUP_TIMEOUT_S = 30
REQUEST_TIMEOUT_S = 10


@pytest.fixture
def server(served_warehouse):
    """The server on port 0 (the OS picks a free one); its URL read from the line it prints once listening."""
    with _serving(served_warehouse, threads=4) as (url, _):
        yield url


@contextlib.contextmanager
def _serving(served_warehouse, threads: int):
    """A running ``warehouse serve``: its URL and process (stderr is a pipe the caller may read)."""
    command = [sys.executable, "-c", "from warehouse.cli import cli; cli()", "serve",
               "--db", str(served_warehouse["path"]), "--port", "0", "--token", "t0k3n", "--threads", str(threads)]
    # a short time limit through the environment layer of the config, for the runaway query below
    env = {**os.environ, "WAREHOUSE_TIME_LIMIT_S": "0.5"}
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    try:
        url, said = _wait_for_url(process)
        assert url, f"server did not start within {STARTUP_TIMEOUT_S} s; it said: {said!r}"
        yield url, process
    finally:
        process.kill()
        process.wait(timeout=REQUEST_TIMEOUT_S)
        process.stderr.close()


def _wait_for_url(process) -> tuple[str | None, str]:
    """The URL from the server's 'serving ... on URL' line, reading stderr for at most STARTUP_TIMEOUT_S."""
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    said = b""
    with selectors.DefaultSelector() as selector:
        selector.register(process.stderr, selectors.EVENT_READ)
        while (left := deadline - time.monotonic()) > 0 and selector.select(timeout=left):
            chunk = os.read(process.stderr.fileno(), 4096)
            if not chunk:  # the process ended
                break
            said += chunk
            if match := re.search(rb" on (http://127\.0\.0\.1:\d+/api/v1)", said):
                return match[1].decode(), said.decode(errors="replace")
    return None, said.decode(errors="replace")


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
    with _serving(served_warehouse, threads=1) as (url, process):
        with concurrent.futures.ThreadPoolExecutor(16) as clients:
            statuses = list(clients.map(lambda _: call(f"{url}/queries/top_kernels")[0], range(64)))
        process.kill()
        said = process.stderr.read().decode(errors="replace")
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
