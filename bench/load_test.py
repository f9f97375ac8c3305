"""Load test of ``warehouse serve`` (issue 11): concurrent clients on loopback for a bounded time.

Starts a real ``warehouse serve`` process (with a token) on a free loopback port, over the
demo warehouse (``warehouse.demo``: 4 rank dbs, 2 text ranks, an operator profile) unless
``--db`` names one, then runs ``--clients`` threads, each with its own keep-alive HTTP
connection, for ``--seconds``: each sends the requests of :data:`MIX` in turn (health, the
catalog, sources, named queries, a timeline window, ad-hoc SQL, an insight command, and a
refused ATTACH). An error is an answer with another status than the request expects, or no
answer (exception, timeout). Prints requests, errors, requests/s and latency percentiles;
``--record`` appends them to bench/RESULTS.md under "## Load test".

Run: ``.venv/bin/python bench/load_test.py --clients 16 --seconds 20 --record``
(needs only the project; ``tests/service/test_hardening_load.py`` runs a short version).
"""

from __future__ import annotations

import argparse
import datetime
import http.client
import json
import os
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from server_process import served  # noqa: E402  (tests/server_process.py: the one launcher of tests and benchmarks)

TOKEN = "load-test-token"
STARTUP_TIMEOUT_S = 60
REQUEST_TIMEOUT_S = 30
RESULTS = Path(__file__).resolve().parent / "RESULTS.md"


@dataclass(frozen=True)
class Call:
    """One request of the mix and the status it must get."""

    label: str
    method: str
    path: str
    body: dict | None = None
    expect: int = 200


def mix(thread_id: int) -> list[Call]:
    """The requests every client repeats (``thread_id``: a thread of the warehouse for the timeline window)."""
    return [
        Call("health", "GET", "/health"),
        Call("catalog", "GET", "/queries"),
        Call("sources", "GET", "/sources"),
        Call("top_kernels", "GET", "/queries/top_kernels?_limit=20"),
        Call("timeline", "GET", f"/queries/timeline_slices?thread_id={thread_id}&start=0&end=9000000000000000000"
                                "&_limit=200"),
        Call("sql", "POST", "/sql", {"sql": "SELECT kind, count(*) AS n FROM source GROUP BY kind"}),
        Call("insight", "POST", "/insight", {"id": 1, "moduleName": "source", "type": "request",
                                             "command": "source/details/baseInfo", "params": {}}),
        Call("refused_attach", "POST", "/sql", {"sql": "ATTACH DATABASE '/tmp/x.db' AS x"}, expect=400),
    ]


@dataclass
class Tally:
    """What the clients saw: latencies (ms) per label, errors with a sample of their causes."""

    latencies: dict[str, list[float]] = field(default_factory=dict)
    errors: int = 0
    causes: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, label: str, ms: float, error: str | None) -> None:
        with self.lock:
            self.latencies.setdefault(label, []).append(ms)
            if error:
                self.errors += 1
                if len(self.causes) < 10:
                    self.causes.append(f"{label}: {error}")

    @property
    def requests(self) -> int:
        return sum(len(values) for values in self.latencies.values())

    def all_latencies(self) -> list[float]:
        return [ms for values in self.latencies.values() for ms in values]


def percentile(values: list[float], p: float) -> float:
    """The ``p``-th percentile (nearest rank) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


def client(host: str, port: int, calls: list[Call], stop: float, tally: Tally, requests: int | None = None) -> None:
    """One client: a keep-alive connection sending ``calls`` in turn until ``stop`` (monotonic)
    or, when given, until it sent ``requests`` requests."""
    connection = http.client.HTTPConnection(host, port, timeout=REQUEST_TIMEOUT_S)
    headers = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}
    index = 0
    while time.monotonic() < stop and (requests is None or index < requests):
        call = calls[index % len(calls)]
        index += 1
        started = time.perf_counter()
        error = None
        try:
            body = None if call.body is None else json.dumps(call.body)
            connection.request(call.method, "/api/v1" + call.path, body=body, headers=headers)
            response = connection.getresponse()
            response.read()
            if response.status != call.expect:
                error = f"status {response.status}, expected {call.expect}"
        except (OSError, http.client.HTTPException) as exc:
            error = f"{type(exc).__name__}: {exc}"
            connection.close()
            connection = http.client.HTTPConnection(host, port, timeout=REQUEST_TIMEOUT_S)
        tally.record(call.label, (time.perf_counter() - started) * 1000, error)
    connection.close()


def a_thread_id(db_path: Path) -> int:
    """The thread with the most slices (the timeline window's thread)."""
    from warehouse import db

    conn = db.connect_readonly(db_path)
    try:
        row = conn.execute("SELECT thread_id FROM _slice GROUP BY thread_id ORDER BY count(*) DESC LIMIT 1").fetchone()
    finally:
        conn.close()
    return row[0] if row else 1


def run(db_path: Path, clients: int, seconds: float, server_threads: int) -> Tally:
    """Serve ``db_path`` and load it with ``clients`` clients for ``seconds``; the server is stopped after."""
    with served(db_path, "--token", TOKEN, "--threads", str(server_threads), timeout_s=STARTUP_TIMEOUT_S) as server:
        host, port = server.host, server.port
        calls = mix(a_thread_id(db_path))
        # warm-up, not counted: the server loads the query registry (~1 s) on its first requests
        warm = Tally()
        client(host, port, calls, time.monotonic() + STARTUP_TIMEOUT_S, warm, requests=len(calls))
        if warm.errors:
            raise RuntimeError(f"the warm-up pass failed: {warm.causes}")
        tally = Tally()
        stop = time.monotonic() + seconds
        workers = [threading.Thread(target=client, args=(host, port, calls[i % len(calls):] + calls[:i % len(calls)],
                                                         stop, tally))
                   for i in range(clients)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        return tally


def build_demo(folder: Path) -> Path:
    """The demo warehouse under ``folder`` (see warehouse.demo)."""
    from warehouse import db, demo, ingest

    inputs = demo.write_inputs(folder / "inputs")
    db_path = folder / "warehouse.db"
    conn = db.connect(db_path)
    try:
        failed = [r for r in ingest.ingest_paths(conn, [inputs]) if r.status == "failed"]
    finally:
        conn.close()
    if failed:
        raise RuntimeError(f"the demo did not ingest: {failed[0].error}")
    return db_path


def report(tally: Tally, clients: int, seconds: float) -> str:
    """The figures as a Markdown table: overall and per request label."""
    lines = [f"{clients} clients x {seconds:g} s: {tally.requests} requests, {tally.errors} errors, "
             f"{tally.requests / seconds:.0f} requests/s", "",
             "| request | count | p50 ms | p95 ms | p99 ms | max ms |", "|---|---:|---:|---:|---:|---:|"]
    rows = [("all", tally.all_latencies())] + sorted(tally.latencies.items())
    for label, values in rows:
        if values:
            lines.append(f"| {label} | {len(values)} | {percentile(values, 50):.1f} | {percentile(values, 95):.1f} | "
                         f"{percentile(values, 99):.1f} | {max(values):.1f} |")
    lines += [f"- error: {cause}" for cause in tally.causes]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--server-threads", type=int, default=8, help="waitress worker threads")
    parser.add_argument("--db", type=Path, help="serve this warehouse instead of building the demo")
    parser.add_argument("--record", action="store_true", help="append the figures to bench/RESULTS.md")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="load-test-") as tmp:
        started = time.perf_counter()
        db_path = args.db or build_demo(Path(tmp))
        print(f"warehouse {db_path} ({db_path.stat().st_size / 1e6:.1f} MB) ready in "
              f"{time.perf_counter() - started:.1f} s", flush=True)
        tally = run(db_path, args.clients, args.seconds, args.server_threads)
    text = report(tally, args.clients, args.seconds)
    print(text)
    if args.record:
        command = (f".venv/bin/python bench/load_test.py --clients {args.clients} --seconds {args.seconds:g} "
                   f"--server-threads {args.server_threads}" + (f" --db {args.db}" if args.db else "") + " --record")
        when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
        with RESULTS.open("a", encoding="utf-8") as results:
            results.write(f"\n## Load test\n\n`{command}` ({when}, {os.cpu_count()} cores shared with the clients; "
                          f"`warehouse serve` on waitress over the demo warehouse, token on; "
                          f"an error = a status other than expected, or no answer)\n\n{text}\n")
    if tally.errors:
        sys.exit(1)


if __name__ == "__main__":
    main()
