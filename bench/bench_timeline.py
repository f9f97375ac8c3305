"""Timeline latency of the seed-000 protocol (DESIGN §7): unit/threadTraces and unit/threadTracesSummary.

Builds (once, kept at ``--db``) a warehouse of ``--slices`` slices by direct inserts: two
processes of ``--threads`` threads in all, each thread a run of top-level slices with 4
children and 8 grandchildren (13 slices per top slice, log-normal durations, gaps between
top slices), and a few thousand very long slices (a thread's max_dur far above the typical).
Then, through POST /api/v1/insight on Flask's test client (the whole request path but the
socket), prints p50/p95/p99 in ms of the following. The protocol's times are relative to the
input's time zero (its earliest slice start, named query ``insight_source_start``), so the
windows sent are the absolute ones minus it: each answer holds the slices of the window timed.

- unit/threadTraces at 2,000 px over windows of 1 ms, 32 ms, 320 ms and a thread's whole
  span, at random positions on random threads (arrays warm; the cold build is printed apart),
  timed until the answer's bytes are in: the client's decoding of them (Python's json, ~1 ms
  for 1,000 rows here) is the client's work, checked after the clock;
- unit/threadTracesSummary of a process over its full range at 2,000 px, each request on a
  fresh cache (worst case), and repeated (the padded-viewport cache answering);
- the level-of-detail computation alone (``ThreadLod.screen``) for the same windows;
- the named query timeline_slices over the same windows (SQL alone, for comparison);
- ``--concurrent N``: ``warehouse serve`` in a subprocess (waitress) and N client threads
  sending unit/threadTraces (random window sizes) and summaries over real sockets, after one
  warm-up pass over every thread: errors and p50/p95/p99.

    .venv/bin/python bench/bench_timeline.py --db /tmp/timeline10m.db --slices 10000000
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import re
import sqlite3
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np

from service import create_app
from service.insight import cache, timeline
from warehouse import db, queries

NAMES = ("aten::matmul", "aten::add", "aten::mul", "aten::softmax", "aten::copy_", "aten::empty", "MatMulV2",
         "LayerNormV3", "hcom_allReduce", "SoftmaxV2")
WINDOWS_NS = {"1 ms": 1_000_000, "32 ms": 32_000_000, "320 ms": 320_000_000, "whole thread": None}
SCREEN_PX = 2000


def build(path: Path, slices: int, threads: int, seed: int = 0) -> None:
    """A warehouse of ``slices`` slices on ``threads`` threads in two processes (direct inserts)."""
    rng = np.random.default_rng(seed)
    conn = db.connect(path)
    conn.execute("BEGIN")
    conn.execute("INSERT INTO source (id, path, kind, sha256, size_bytes, status, ingested_at, card) "
                 "VALUES (1, 'synthetic', 'trace_json', 'x', 0, 'ok', '2026-01-01', 'bench')")
    conn.executemany("INSERT INTO string (id, value) VALUES (?, ?)", list(enumerate(NAMES, start=1)))
    for process in (1, 2):
        conn.execute("INSERT INTO process (id, source_id, pid, name) VALUES (?, 1, ?, ?)",
                     (process, str(process), f"process {process}"))
    per_thread = slices // threads
    next_id = 1
    for thread in range(1, threads + 1):
        rows, max_dur = _thread_slices(rng, thread, per_thread, next_id)
        conn.execute("INSERT INTO thread (id, process_id, source_id, tid, max_dur) VALUES (?, ?, 1, ?, ?)",
                     (thread, 1 + (thread - 1) * 2 // threads, str(thread), max_dur))
        conn.executemany("INSERT INTO _slice (id, thread_id, ts, dur, name_id, category_id, depth, parent_id, "
                         "source_id) VALUES (?, ?, ?, ?, ?, NULL, ?, ?, 1)", rows)
        next_id += len(rows)
    conn.execute("COMMIT")
    conn.execute("ANALYZE")
    conn.close()


def _thread_slices(rng, thread: int, count: int, first_id: int) -> tuple[list[tuple], int]:
    """Top slices each with 4 children of 2 grandchildren, as rows (id, thread, ts, dur, name, depth, parent)."""
    tops = count // 13
    top_dur = rng.lognormal(np.log(80_000), 0.8, tops).astype(np.int64) + 1300
    top_dur[rng.random(tops) < 0.002] *= 200  # a few very long slices: max_dur far above the typical
    gap = rng.lognormal(np.log(20_000), 1.0, tops).astype(np.int64)
    top_ts = np.cumsum(top_dur + gap) - top_dur - gap + 1_000_000_000
    rows = []
    next_id = first_id
    names = rng.integers(1, len(NAMES) + 1, count)
    for i in range(tops):
        ts, dur = int(top_ts[i]), int(top_dur[i])
        top = next_id
        rows.append((top, thread, ts, dur, int(names[next_id - first_id]), 0, None))
        next_id += 1
        child_dur = dur // 5
        for c in range(4):
            child_ts = ts + c * (dur // 4) + 1
            child = next_id
            rows.append((child, thread, child_ts, child_dur, int(names[next_id - first_id]), 1, top))
            next_id += 1
            for g in range(2):
                rows.append((next_id, thread, child_ts + g * (child_dur // 2) + 1, child_dur // 3,
                             int(names[next_id - first_id]), 2, child))
                next_id += 1
    return rows, int(top_dur.max())


def percentiles(samples: list[float]) -> str:
    ms = sorted(s * 1000 for s in samples)
    q = statistics.quantiles(ms, n=100, method="inclusive")
    return f"p50 {q[49]:7.3f}  p95 {q[94]:7.3f}  p99 {q[98]:7.3f} ms  (n={len(ms)})"


def timed(fn, n: int, indent: int = 16) -> str:
    """Wall-clock and CPU-time percentiles of ``n`` calls. The request runs in this thread, so its
    CPU time is its latency on an idle core: the figure that holds when the shared machine is busy."""
    wall, cpu = [], []
    for _ in range(n):
        began, began_cpu = time.perf_counter(), time.thread_time()
        fn()
        wall.append(time.perf_counter() - began)
        cpu.append(time.thread_time() - began_cpu)
    return f"wall {percentiles(wall)}\n{'':{indent}}cpu  {percentiles(cpu)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=Path("/tmp/timeline10m.db"))
    parser.add_argument("--slices", type=int, default=10_000_000)
    parser.add_argument("--threads", type=int, default=16)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--concurrent", type=int, default=16, help="client threads against the real server (0: skip)")
    args = parser.parse_args()
    if not args.db.exists():
        began = time.perf_counter()
        build(args.db, args.slices, args.threads)
        print(f"built {args.db} ({args.slices:,} slices, {args.threads} threads) in {time.perf_counter() - began:.1f} s")
    else:
        db.connect(args.db).close()  # a warehouse kept from an earlier run: brought to this code's schema
    conn = sqlite3.connect(f"file:{args.db}?mode=ro", uri=True)
    spans = {t: conn.execute("SELECT min(ts), max(ts + dur) FROM _slice WHERE thread_id = ?", (t,)).fetchone()
             for (t,) in conn.execute("SELECT id FROM thread")}
    processes = {p: [t for (t,) in conn.execute("SELECT id FROM thread WHERE process_id = ?", (p,))]
                 for (p,) in conn.execute("SELECT id FROM process")}
    total = conn.execute("SELECT count(*) FROM _slice").fetchone()[0]
    print(f"warehouse: {total:,} slices, {len(spans)} threads, {len(processes)} processes")
    app = create_app({"DATABASE": str(args.db), "TESTING": True})
    client = app.test_client()
    rng = random.Random(1)
    process_of = {t: p for p, ts in processes.items() for t in ts}
    zero_of = time_zeros(conn)
    print(f"time zero of the input(s): {sorted(set(zero_of.values()))} ns (subtracted from every window sent)")

    def send(command: str, params: dict):
        return client.post("/api/v1/insight", json={"id": 1, "moduleName": "timeline", "type": "request",
                                                    "command": command, "params": params})

    def body(response) -> dict:
        answer = response.get_json()
        assert answer.get("result"), answer
        return answer["body"]

    def post(command: str, params: dict) -> dict:
        return body(send(command, params))

    def window(size):
        thread = rng.choice(list(spans))
        first, last = spans[thread]
        size = size or last - first
        start = rng.randint(first, max(first, last - size))
        return thread, start, start + size

    cache.forget(str(args.db))
    began = time.perf_counter()
    for thread in spans:
        cache.for_warehouse(str(args.db)).thread(conn, thread)
    print(f"cold: arrays and levels of all {len(spans)} threads built in {time.perf_counter() - began:.2f} s "
          f"(once per thread and warehouse state)")

    print(f"\nunit/threadTraces over HTTP (test client), {SCREEN_PX} px, warm arrays, until the answer's bytes are "
          "in (the client's JSON decoding after the clock):")
    for label, size in WINDOWS_NS.items():
        answers = []

        def request():
            thread, start, end = window(size)
            zero = zero_of[thread]
            answers.append(send("unit/threadTraces", {"processId": str(process_of[thread]), "threadId": str(thread),
                                                      "startTime": start - zero, "endTime": end - zero,
                                                      "timePerPx": (end - start) / SCREEN_PX}))

        figures = timed(request, args.requests)
        rows_seen = [sum(len(d) for d in body(answer)["data"]) for answer in answers]
        if not any(rows_seen):
            raise SystemExit(f"every {label} answer was empty: the windows missed the slices")
        print(f"  {label:>12}: {figures}  rows/answer p50 {statistics.median(rows_seen):.0f}")

    print(f"\nlevel of detail alone (ThreadLod.screen), {SCREEN_PX} px:")
    store = cache.for_warehouse(str(args.db))
    for label, size in WINDOWS_NS.items():
        def compute():
            thread, start, end = window(size)
            store.thread(conn, thread).screen(start, end, (end - start) / SCREEN_PX, timeline.MAX_ITEMS)

        print(f"  {label:>12}: {timed(compute, args.requests)}")

    print("\nnamed query timeline_slices (SQL alone, every slice of the window fetched):")
    query = queries.get("timeline_slices")
    for label, size in WINDOWS_NS.items():
        if size is None:
            continue

        def fetch():
            thread, start, end = window(size)
            query.run(conn, {"thread_id": thread, "start": start, "end": end})

        print(f"  {label:>12}: {timed(fetch, min(args.requests, 100))}")

    print(f"\nunit/threadTracesSummary over HTTP, process full range, {SCREEN_PX} px:")
    for cached in (False, True):
        def summary():
            process = rng.choice(list(processes))
            first = min(spans[t][0] for t in processes[process])
            last = max(spans[t][1] for t in processes[process])
            if not cached:
                store.summaries.clear()
            zero = zero_of[processes[process][0]]
            post("unit/threadTracesSummary", {"processId": str(process), "startTime": first - zero,
                                              "endTime": last - zero, "timePerPx": (last - first) / SCREEN_PX})

        label = "viewport cached" if cached else "fresh (no cached summary)"
        print(f"  {label:>26}: {timed(summary, args.requests, indent=30)}")
    if args.concurrent:
        concurrent(args, spans, processes, process_of, zero_of)


def time_zeros(conn: sqlite3.Connection) -> dict[int, int]:
    """Each thread's time zero in the protocol: its input's earliest slice start (``insight_source_start``)."""
    source_of = dict(conn.execute("SELECT id, source_id FROM thread"))
    start = queries.get("insight_source_start")
    zeros = {source: start.run(conn, {"source_id": source})[1][0][0] for source in set(source_of.values())}
    return {thread: zeros[source] or 0 for thread, source in source_of.items()}


def concurrent(args, spans: dict, processes: dict, process_of: dict, zero_of: dict) -> None:
    """``warehouse serve`` in a subprocess; ``args.concurrent`` clients over keep-alive sockets."""
    command = str(Path(sys.executable).parent / "warehouse")
    server = subprocess.Popen([command, "serve", "--db", str(args.db), "--port", "0",
                               "--threads", str(args.concurrent)], stderr=subprocess.PIPE, text=True)
    try:
        port = int(re.search(r":(\d+)/api/v1", server.stderr.readline())[1])
        samples, errors = [], []

        def post(conn, command: str, params: dict) -> float:
            payload = json.dumps({"id": 1, "moduleName": "timeline", "type": "request", "command": command,
                                  "params": params})
            began = time.perf_counter()
            conn.request("POST", "/api/v1/insight", payload, {"Content-Type": "application/json"})
            response = conn.getresponse()
            data = response.read()
            elapsed = time.perf_counter() - began
            if response.status != 200 or b'"result":true' not in data:
                errors.append(data[:200])
            return elapsed

        warm = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        for thread in spans:  # every thread's arrays read once: what is measured is the warm service
            first = spans[thread][0] - zero_of[thread]
            post(warm, "unit/threadTraces", {"processId": process_of[thread], "threadId": thread,
                                             "startTime": first, "endTime": first + 1, "timePerPx": 1})

        def client(seed: int) -> None:
            rng = random.Random(seed)
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            for i in range(args.requests // 2):
                thread = rng.choice(list(spans))
                zero = zero_of[thread]
                first, last = spans[thread][0] - zero, spans[thread][1] - zero
                if i % 10 == 9:
                    process = process_of[thread]
                    lo = min(spans[t][0] for t in processes[process]) - zero
                    hi = max(spans[t][1] for t in processes[process]) - zero
                    samples.append(post(conn, "unit/threadTracesSummary", {
                        "processId": process, "startTime": lo, "endTime": hi, "timePerPx": (hi - lo) / SCREEN_PX}))
                    continue
                size = rng.choice([s or last - first for s in WINDOWS_NS.values()])
                start = rng.randint(first, max(first, last - size))
                samples.append(post(conn, "unit/threadTraces", {
                    "processId": process_of[thread], "threadId": thread, "startTime": start,
                    "endTime": start + size, "timePerPx": size / SCREEN_PX}))

        clients = [threading.Thread(target=client, args=(seed,)) for seed in range(args.concurrent)]
        began = time.perf_counter()
        for c in clients:
            c.start()
        for c in clients:
            c.join()
        wall = time.perf_counter() - began
        print(f"\n{args.concurrent} concurrent clients over HTTP (waitress, {args.concurrent} threads), "
              f"threadTraces + 1 summary in 10:")
        print(f"  {percentiles(samples)}  errors {len(errors)}  throughput {len(samples) / wall:.0f} req/s")
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
