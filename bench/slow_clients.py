"""Slow clients among many (issue 23): do 2-4 clients looping runaway SQL starve the others?

Starts a real ``warehouse serve`` (bench/load_test.py's server and clients) over the demo
warehouse (or ``--db``), then runs ``--clients`` clients for ``--seconds``: ``--slow`` of them
loop a runaway recursive CTE through ``POST /sql`` (each stopped by the time limit, or told
503 that the ad-hoc SQL slots are busy), the others send load_test.py's mix less its ad-hoc
SQL (health, the catalog, sources, named queries, a timeline window, an insight command).
Prints the others' requests/s, p50 and p99, and what the slow clients got; ``--record``
appends it to bench/RESULTS.md under "## Slow clients".

Run: ``.venv/bin/python bench/slow_clients.py --clients 32 --slow 4 --seconds 30 --record``
"""

from __future__ import annotations

import argparse
import datetime
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import load_test  # noqa: E402  (the server, the clients and the mix of the load test)

RUNAWAY = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT max(i) AS m FROM n"


def slow_client(host: str, port: int, stop: float, outcomes: Counter, lock: threading.Lock) -> None:
    """Loop the runaway query until ``stop``; count the statuses it gets."""
    import http.client
    import json

    headers = {"Authorization": f"Bearer {load_test.TOKEN}", "Content-Type": "application/json"}
    while time.monotonic() < stop:
        connection = http.client.HTTPConnection(host, port, timeout=load_test.REQUEST_TIMEOUT_S)
        try:
            connection.request("POST", "/api/v1/sql", body=json.dumps({"sql": RUNAWAY}), headers=headers)
            response = connection.getresponse()
            body = json.loads(response.read() or b"{}")
            outcome = f"{response.status} {body.get('error', {}).get('code', 'ok')}"
        except (OSError, ValueError) as exc:
            outcome = type(exc).__name__
        finally:
            connection.close()
        with lock:
            outcomes[outcome] += 1


def run(db_path: Path, clients: int, slow: int, seconds: float, server_threads: int):
    with load_test.served(db_path, "--token", load_test.TOKEN, "--threads", str(server_threads),
                          timeout_s=load_test.STARTUP_TIMEOUT_S) as server:
        host, port = server.host, server.port
        calls = [c for c in load_test.mix(load_test.a_thread_id(db_path)) if c.path != "/sql"]
        warm = load_test.Tally()
        load_test.client(host, port, calls, time.monotonic() + 60, warm, requests=len(calls))
        if warm.errors:
            raise RuntimeError(f"the warm-up pass failed: {warm.causes}")
        tally, outcomes, lock = load_test.Tally(), Counter(), threading.Lock()
        stop = time.monotonic() + seconds
        workers = [threading.Thread(target=slow_client, args=(host, port, stop, outcomes, lock)) for _ in range(slow)]
        workers += [threading.Thread(target=load_test.client,
                                     args=(host, port, calls[i % len(calls):] + calls[:i % len(calls)], stop, tally))
                    for i in range(clients - slow)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        return tally, outcomes


def report(tally, outcomes: Counter, clients: int, slow: int, seconds: float) -> str:
    every = [ms for values in tally.latencies.values() for ms in values]
    lines = [f"{clients} clients ({slow} looping a runaway query), {seconds:g} s: the {clients - slow} others sent "
             f"{len(every)} requests, {len(every) / seconds:.1f}/s, errors {tally.errors}",
             "", "| requests | n | p50 ms | p99 ms |", "| --- | ---: | ---: | ---: |"]
    for label, values in sorted(tally.latencies.items()):
        lines.append(f"| {label} | {len(values)} | {load_test.percentile(values, 50):.1f} | "
                     f"{load_test.percentile(values, 99):.1f} |")
    lines.append(f"| all others | {len(every)} | {load_test.percentile(every, 50):.1f} | "
                 f"{load_test.percentile(every, 99):.1f} |")
    lines += ["", "slow clients got: " + ", ".join(f"{n} x {o}" for o, n in sorted(outcomes.items()))]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, help="a warehouse (default: the demo, built in a temporary folder)")
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--slow", type=int, default=4, help="clients looping a runaway query (of --clients)")
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--server-threads", type=int, default=2)
    parser.add_argument("--record", action="store_true", help="append the result to bench/RESULTS.md")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db_path = args.db or load_test.build_demo(Path(folder))
        tally, outcomes = run(db_path, args.clients, args.slow, args.seconds, args.server_threads)
    text = report(tally, outcomes, args.clients, args.slow, args.seconds)
    print(text)
    if args.record:
        command = " ".join(["bench/slow_clients.py", *sys.argv[1:]])
        with open(load_test.RESULTS, "a") as results:
            results.write(f"\n## Slow clients\n\n`.venv/bin/python {command}` "
                          f"({datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC):\n\n{text}\n")


if __name__ == "__main__":
    main()
