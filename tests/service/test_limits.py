"""Issue 23, items 1 and 2: one request cannot take the server's memory, a few slow clients cannot starve the others.

Each test drives a real ``warehouse serve`` on loopback, bounded in requests and seconds, and asserts the
bounded outcome: a 4xx with a one-line reason, quickly; the server's peak RSS (``VmHWM``) under a generous
cap; ``/health`` and a named query answering meanwhile.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import threading
import time

import pytest

from server_process import served

STARTUP_TIMEOUT_S = 30
#: the server's peak resident memory must stay under this (it is ~100 MB; the issue saw 15.8 GB)
RSS_CAP_MB = 600
RUNAWAY = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT i FROM n"
#: runs until the time limit stops it, whatever the page size
ENDLESS = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT max(i) AS m FROM n"


@contextlib.contextmanager
def serving(path, threads: int = 2, **env):
    """A running ``warehouse serve`` (no token): ``(host, port, process)``; ``env``: WAREHOUSE_* settings."""
    settings = {f"WAREHOUSE_{k}": str(v) for k, v in env.items()}
    with served(path, "--threads", str(threads), env=settings, timeout_s=STARTUP_TIMEOUT_S) as server:
        yield server.host, server.port, server.process


def request(server, method: str, path: str, body: dict | None = None, timeout: float = 30) -> tuple[int, bytes, float]:
    """``(status, body, seconds)`` of one request on a new connection."""
    host, port, _ = server
    started = time.monotonic()
    conn = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        conn.request(method, f"/api/v1{path}", body=None if body is None else json.dumps(body),
                     headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        return response.status, response.read(), time.monotonic() - started
    finally:
        conn.close()


def error_of(body: bytes) -> dict:
    error = json.loads(body)["error"]
    assert "\n" not in error["message"], error  # one line
    return error


def peak_rss_mb(process) -> float:
    """The server process's peak resident memory (``VmHWM`` of /proc/<pid>/status), in MB."""
    with open(f"/proc/{process.pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmHWM")


@pytest.fixture
def server(served_warehouse):
    with serving(served_warehouse["path"], TIME_LIMIT_S=3) as running:
        yield running


@pytest.fixture(scope="module")
def refusing_server(served_warehouse_once):
    """One server for the tests whose requests are refused before any SQL runs (they leave it as it was)."""
    with serving(served_warehouse_once["path"], TIME_LIMIT_S=3) as running:
        yield running


@pytest.mark.slow  # a server process per test, seconds each
def test_huge_values_are_refused_quickly_in_bounded_memory_while_health_answers(server):
    answers = {}

    def huge():
        answers["csv"] = request(server, "POST", "/sql?_format=csv",
                                 {"sql": "SELECT zeroblob(400000000) AS b FROM (VALUES (1), (2), (3))"})
        answers["printf"] = request(server, "POST", "/sql",
                                    {"sql": "SELECT length(printf('%.*c', 999999999, 'x')) AS n"})
        # each value under the length limit, the answer over the bytes limit: stopped while fetched
        answers["many"] = request(server, "POST", "/sql?_format=csv&_limit=1000",
                                  {"sql": "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n "
                                          "WHERE i < 200) SELECT zeroblob(10000000) AS b FROM n"})

    worker = threading.Thread(target=huge)
    worker.start()
    health = [request(server, "GET", "/health", timeout=5) for _ in range(5)]
    worker.join(timeout=60)
    assert not worker.is_alive()
    assert [status for status, _, _ in health] == [200] * 5
    assert max(seconds for _, _, seconds in health) < 2
    status, body, seconds = answers["csv"]
    assert (status, error_of(body)["code"]) == (413, "too_large") and seconds < 3
    assert "WAREHOUSE_MAX_VALUE_BYTES" in error_of(body)["message"]
    status, body, seconds = answers["printf"]
    assert (status, error_of(body)["code"]) == (413, "too_large") and seconds < 3
    status, body, seconds = answers["many"]
    assert (status, error_of(body)["code"]) == (413, "too_large") and seconds < 10
    assert "WAREHOUSE_MAX_ANSWER_BYTES" in error_of(body)["message"]
    assert peak_rss_mb(server[2]) < RSS_CAP_MB


@pytest.mark.slow  # a server process per test, seconds each
def test_a_row_too_wide_for_sqlites_heap_is_one_line_413(served_warehouse):
    # 200 values of 16 MB, each under the length limit: 3.2 GB in SQLite, twice that with Python's copies
    wide = "SELECT " + ", ".join(f"zeroblob(16000000) AS c{i}" for i in range(200))
    with serving(served_warehouse["path"], TIME_LIMIT_S=10, MAX_SQLITE_HEAP_BYTES=300 * 2**20) as running:
        status, body, seconds = request(running, "POST", "/sql", {"sql": wide})
        assert (status, error_of(body)["code"]) == (413, "too_large") and seconds < 10
        assert "WAREHOUSE_MAX_SQLITE_HEAP_BYTES" in error_of(body)["message"]
        assert peak_rss_mb(running[2]) < RSS_CAP_MB + 300
        status, body, _ = request(running, "POST", "/sql", {"sql": "SELECT count(*) AS n FROM source"})
        assert status == 200 and json.loads(body)["rows"][0]["n"] >= 1


@pytest.mark.slow  # a server process per test, seconds each
def test_offsets_are_capped_and_skipped_rows_are_not_kept(server):
    status, body, seconds = request(server, "POST", "/sql?_offset=2000000000", {"sql": RUNAWAY})
    assert (status, error_of(body)["code"]) == (400, "bad_parameter") and seconds < 2
    assert "WAREHOUSE_MAX_OFFSET" in error_of(body)["message"]
    # the largest offset allowed, over an endless query: a page, or the time limit, in bounded memory
    status, body, seconds = request(server, "POST", "/sql?_offset=1000000&_limit=2", {"sql": RUNAWAY})
    assert status in (200, 400) and seconds < 6
    if status == 200:
        assert json.loads(body)["rows"] == [{"i": 1_000_001}, {"i": 1_000_002}]
    assert peak_rss_mb(server[2]) < RSS_CAP_MB


@pytest.mark.slow  # a server process (the module's), seconds
@pytest.mark.parametrize("sql, reason", [
    ("SELECT 1" + " " * 900_000, "WAREHOUSE_MAX_SQL_BYTES"),
    ("SELECT " + "(" * 1000 + "1" + ")" * 1000, "WAREHOUSE_MAX_SQL_DEPTH"),
    ("SELECT " + "(" * 40 + "1" + ")" * 40, "WAREHOUSE_MAX_SQL_DEPTH"),
])
def test_long_or_deep_sql_is_one_line_400(refusing_server, sql, reason):
    status, body, seconds = request(refusing_server, "POST", "/sql", {"sql": sql})
    assert (status, error_of(body)["code"]) == (400, "unsafe_sql") and seconds < 2
    assert reason in error_of(body)["message"]


@pytest.mark.slow  # a server process (the module's), seconds
def test_a_body_over_the_request_limit_is_one_line_413(refusing_server):
    status, body, _ = request(refusing_server, "POST", "/sql", {"sql": "SELECT 1" + " " * 1_000_000})
    assert status == 413 and error_of(body)


@pytest.mark.parametrize("sql, reason", [
    ("SELECT 1" + " " * 1_000_000, "WAREHOUSE_MAX_SQL_BYTES"),
    ("SELECT " + "(" * 1000 + "1" + ")" * 1000, "WAREHOUSE_MAX_SQL_DEPTH"),
    ("SELECT length(zeroblob(400000000)) AS n", "WAREHOUSE_MAX_VALUE_BYTES"),
])
def test_cli_sql_refuses_in_one_line(runner, served_warehouse, sql, reason):
    from warehouse.cli import cli

    result = runner.invoke(cli, ["sql", sql, "--db", str(served_warehouse["path"])])
    assert result.exit_code == 1
    assert result.output.count("\n") == 1 and result.output.startswith("Error: ") and reason in result.output
    assert "Traceback" not in result.output


def test_cli_sql_has_the_time_and_row_limits(runner, served_warehouse):
    from warehouse.cli import cli

    started = time.monotonic()
    result = runner.invoke(cli, ["sql", ENDLESS, "--db", str(served_warehouse["path"]),
                                 "--time-limit", "0.5"])
    assert result.exit_code == 1 and "time limit of 0.5 s" in result.output and time.monotonic() - started < 5
    result = runner.invoke(cli, ["sql", RUNAWAY, "--db", str(served_warehouse["path"]), "--max-rows", "3",
                                 "--format", "csv"])
    assert result.exit_code == 0
    assert result.stdout == "i\n1\n2\n3\n" and "stopped after 3 rows" in result.stderr


@pytest.mark.slow
def test_slow_sql_clients_do_not_starve_health_and_named_queries(served_warehouse):
    """2 clients loop a runaway query; 100 requests of the others answer with p99 under 1 s."""
    with serving(served_warehouse["path"], threads=2, TIME_LIMIT_S=2) as running:
        stop = threading.Event()
        slow_statuses = []

        def slow_client():
            while not stop.is_set():
                status, body, _ = request(running, "POST", "/sql", {"sql": ENDLESS}, timeout=30)
                slow_statuses.append((status, json.loads(body)["error"]["code"]))

        slow = [threading.Thread(target=slow_client) for _ in range(2)]
        for thread in slow:
            thread.start()
        time.sleep(0.5)  # both runaway queries are in
        latencies = []
        try:
            for i in range(100):
                path = "/health" if i % 2 else "/queries/top_kernels?_limit=5"
                status, _, seconds = request(running, "GET", path, timeout=10)
                assert status == 200
                latencies.append(seconds)
                time.sleep(0.02)
        finally:
            stop.set()
            for thread in slow:
                thread.join(timeout=30)
    latencies.sort()
    assert latencies[98] < 1.0, latencies[-5:]
    # the runaway queries were stopped by the time limit, or told the slots were busy
    assert slow_statuses and {code for _, code in slow_statuses} <= {"time_limit", "busy"}
    assert ("time_limit" in {code for _, code in slow_statuses})


@pytest.mark.slow
def test_the_sql_slots_answer_503_when_full(served_warehouse):
    with serving(served_warehouse["path"], threads=2, TIME_LIMIT_S=3, SQL_SLOTS=1, SQL_QUEUE=1,
                 SQL_WAIT_S=0.3) as running:
        results = []

        def one():
            results.append(request(running, "POST", "/sql", {"sql": ENDLESS}))

        clients = [threading.Thread(target=one) for _ in range(4)]
        for thread in clients:
            thread.start()
        for thread in clients:
            thread.join(timeout=30)
    codes = sorted(error_of(body)["code"] for _, body, _ in results)
    statuses = sorted(status for status, _, _ in results)
    assert codes == ["busy", "busy", "busy", "time_limit"] and statuses == [400, 503, 503, 503]
    assert max(seconds for status, _, seconds in results if status == 503) < 2


def _slow_loris(host: str, port: int, count: int, stop: threading.Event, every_s: float) -> list[socket.socket]:
    """``count`` connections that send a request line and then one header line every ``every_s``, never finishing."""
    sockets = []
    for _ in range(count):
        sock = socket.create_connection((host, port), timeout=5)
        sock.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\n")
        sockets.append(sock)

    def trickle():
        while not stop.wait(every_s):
            for i, sock in enumerate(sockets):
                with contextlib.suppress(OSError):
                    sock.sendall(f"X-Slow-{i}: 1\r\n".encode())

    threading.Thread(target=trickle, daemon=True).start()
    return sockets


@pytest.mark.slow
def test_slow_half_open_connections_do_not_lock_out_a_new_client(served_warehouse):
    # 110 slow clients against the default connection limit: a new client is answered at once
    with serving(served_warehouse["path"]) as running:
        stop = threading.Event()
        sockets = _slow_loris(running[0], running[1], 110, stop, every_s=1.0)
        try:
            time.sleep(1.5)
            status, _, seconds = request(running, "GET", "/health", timeout=10)
            assert status == 200 and seconds < 2
        finally:
            stop.set()
            for sock in sockets:
                sock.close()
    # more slow clients than a (small) connection limit: they are dropped after the read timeout
    with serving(served_warehouse["path"], CONNECTION_LIMIT=20, REQUEST_READ_TIMEOUT_S=2) as running:
        stop = threading.Event()
        sockets = _slow_loris(running[0], running[1], 20, stop, every_s=0.5)
        try:
            time.sleep(0.5)
            status, _, seconds = request(running, "GET", "/health", timeout=15)
            assert status == 200 and seconds < 8
            # every slow client is dropped (those held in the listen backlog once accepted and timed)
            deadline = time.monotonic() + 15
            dropped = 0
            for sock in sockets:
                sock.settimeout(max(0.1, deadline - time.monotonic()))
                try:
                    dropped += sock.recv(1) == b""
                except ConnectionResetError:  # closed with the client's trickled headers unread: a reset
                    dropped += 1
                except OSError:  # still open at the deadline
                    pass
            assert dropped == len(sockets)
        finally:
            stop.set()
            for sock in sockets:
                sock.close()
