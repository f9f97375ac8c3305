"""Benchmark of the timeline window query and the REST API (DESIGN §7).

Builds a synthetic warehouse of --slices slices (bench/rest_api.sql), then measures:
1. ``timeline_slices`` in process (the named query on one read-only connection) for
   random windows holding about --window-slices slices: p50/p95 in ms (target p95 < 5 ms
   on 10M slices);
2. ``warehouse serve`` under --clients concurrent keep-alive HTTP clients asking the same
   windows: requests/s, errors, p50/p95/p99 in ms (target 0 errors, p99 < 100 ms).

Run: ``.venv/bin/python bench/rest_api.py --slices 10000000`` (needs only the project).
"""

from __future__ import annotations

import argparse
import os
import http.client
import multiprocessing
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from warehouse import db, queries

SQL = (Path(__file__).parent / "rest_api.sql").read_text(encoding="utf-8")
THREADS = 16


def build(path: Path, slices: int) -> None:
    conn = db.connect(path)
    started = time.perf_counter()
    conn.execute("BEGIN")
    for statement in SQL.split(";\n"):
        if statement.strip():
            params = {"threads": THREADS, "per_thread": slices // THREADS}
            conn.execute(statement, {k: v for k, v in params.items() if f":{k}" in statement})
    conn.execute("COMMIT")
    conn.close()
    print(f"built {slices:,} slices on {THREADS} threads in {time.perf_counter() - started:.1f} s "
          f"({path.stat().st_size / 1e6:.0f} MB)")


def windows(slices: int, window_slices: int, count: int, seed: int = 0) -> list[dict]:
    rng = random.Random(seed)
    span = 1000 * (slices // THREADS)
    width = 1000 * window_slices
    result = []
    for _ in range(count):
        start = rng.randrange(0, span - width)
        result.append({"thread_id": rng.randint(1, THREADS), "start": start, "end": start + width})
    return result


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def bench_in_process(path: Path, asked: list[dict]) -> None:
    query = queries.get("timeline_slices")
    conn = db.connect_readonly(path)
    times, cpu_times, rows = [], [], 0
    for params in asked:
        started, cpu_started = time.perf_counter(), time.thread_time()
        _, result = query.run(conn, {k: str(v) for k, v in params.items()})
        times.append((time.perf_counter() - started) * 1000)
        cpu_times.append((time.thread_time() - cpu_started) * 1000)
        rows += len(result)
    # CPU time too: on a shared 2-core machine the wall clock also counts waiting for a core
    print(f"timeline_slices in process: {len(asked)} windows, {rows / len(asked):.0f} slices each, "
          f"wall p50 {statistics.median(times):.2f} ms, p95 {percentile(times, 0.95):.2f} ms; "
          f"CPU p50 {statistics.median(cpu_times):.2f} ms, p95 {percentile(cpu_times, 0.95):.2f} ms; "
          f"load average {os.getloadavg()[0]:.1f}")


def _client(host: str, port: int, share: list[dict]) -> tuple[list[float], list[str]]:
    """One keep-alive client asking its share of the windows in turn: latencies (ms) and errors."""
    latencies, errors = [], []
    connection = http.client.HTTPConnection(host, port, timeout=30)
    for params in share:
        url = "/api/v1/queries/timeline_slices?" + "&".join(f"{k}={v}" for k, v in params.items())
        started = time.perf_counter()
        try:
            connection.request("GET", url)
            response = connection.getresponse()
            body = response.read()
            # a cheap check: the clients share the 2 cores with the server
            ok = response.status == 200 and body.startswith(b'{"columns"')
        except (OSError, http.client.HTTPException) as exc:
            ok, body = False, str(exc).encode()
            connection = http.client.HTTPConnection(host, port, timeout=30)
        latencies.append((time.perf_counter() - started) * 1000)
        if not ok:
            errors.append(body[:100].decode(errors="replace"))
    return latencies, errors


def bench_http(path: Path, asked: list[dict], clients: int, server_threads: int) -> None:
    command = [sys.executable, "-c", "from warehouse.cli import cli; cli()", "serve", "--db", str(path),
               "--port", "0", "--threads", str(server_threads)]
    server = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    try:
        line = server.stderr.readline()
        host, port = re.search(r"http://([\d.]+):(\d+)/", line).groups()
        # waitress logs "Task queue depth is N" for most requests here: a full stderr pipe would stall it
        threading.Thread(target=server.stderr.read, daemon=True).start()
        started = time.perf_counter()
        # one process per client: threads of one process would queue on its GIL and skew the latencies
        with multiprocessing.Pool(clients) as pool:
            answers = pool.starmap(_client, [(host, int(port), asked[i::clients]) for i in range(clients)])
        wall = time.perf_counter() - started
        latencies = [ms for part, _ in answers for ms in part]
        errors = [e for _, part in answers for e in part]
        print(f"REST timeline_slices, {clients} client processes, {server_threads} server threads: "
              f"{len(latencies)} requests in {wall:.1f} s ({len(latencies) / wall:.0f}/s), {len(errors)} errors, "
              f"p50 {statistics.median(latencies):.1f} ms, p95 {percentile(latencies, 0.95):.1f} ms, "
              f"p99 {percentile(latencies, 0.99):.1f} ms; load average {os.getloadavg()[0]:.1f}")
    finally:
        server.kill()
        server.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slices", type=int, default=10_000_000)
    parser.add_argument("--window-slices", type=int, default=500, help="slices in a screen's window")
    parser.add_argument("--windows", type=int, default=2000)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--server-threads", type=int, default=os.cpu_count() or 2, help="warehouse serve --threads")
    parser.add_argument("--db", type=Path, help="reuse (or create) this warehouse instead of a temporary one")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = args.db or Path(tmp) / "bench.db"
        if not path.exists():
            build(path, args.slices)
        asked = windows(args.slices, args.window_slices, args.windows)
        bench_in_process(path, asked)
        bench_http(path, asked, args.clients, args.server_threads)


if __name__ == "__main__":
    main()
