"""Run every benchmark of DESIGN section 7, one after the other, with the peers' figures from the same run.

Each step is one bench script in a child process; its figures print as it runs. Around each
step this prints the command, the load average before and after (the 2 cores are shared), the
wall time and the CPU time of the step's processes, and at the end a summary of every step.

    .venv/bin/python bench/run_all.py                  # the sizes of DESIGN 7 (about an hour on a quiet machine)
    .venv/bin/python bench/run_all.py --quick          # small sizes: checks that every script runs (minutes)
    .venv/bin/python bench/run_all.py --only trace     # the steps whose name contains "trace"

Inputs come from the generators: ``warehouse.synth.trace_json`` (trace JSON of 1M and 10M events,
and its kineto-style copy for HTA), ``bench/gen_rank_db.py`` (rank dbs of ~1M rows per rank for
8 and 64 ranks), ``bench/op_profile.py`` (operator profile of 100k instructions per core),
``bench/rest_api.sql`` and ``bench/bench_timeline.py`` (10M-slice warehouses). Peers run in their
own venvs (msprof-analyze: /tmp/peer-venv, HTA: /tmp/hta-venv; see bench_rank_db.py and
peer_hta.py for how to install them); a step whose peer is missing says so and goes on.
"""

from __future__ import annotations

import argparse
import datetime
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
WORK = Path("/tmp/bench_run_all")

#: (name, script and arguments at DESIGN 7's sizes, the same with --quick); api-rows 170,000 is ~1M rows per rank
STEPS = (
    ("trace JSON 1M events + json.load", ["bench_trace_json.py", "--repeat", "1"],
     ["bench_trace_json.py", "--events", "100000", "--repeat", "1", "--dir", f"{WORK}/trace_quick"]),
    ("trace JSON 10M events", ["bench_trace_json.py", "--big", "--repeat", "1"], None),
    ("trace JSON 4 ranks x 500k events, 2 jobs", ["bench_trace_json.py", "--events", "500000", "--ranks", "4",
                                                  "--jobs", "2", "--repeat", "1", "--dir", f"{WORK}/trace_ranks"],
     ["bench_trace_json.py", "--events", "50000", "--ranks", "2", "--jobs", "2", "--repeat", "1",
      "--dir", f"{WORK}/trace_ranks_quick"]),
    ("trace JSON 1M events vs HTA", ["peer_hta.py"], ["peer_hta.py", "--events", "100000", "--dir", f"{WORK}/hta_quick"]),
    ("rank db 8 ranks vs msprof-analyze", ["bench_rank_db.py", "--ranks", "8", "--api-rows", "170000",
                                           "--work", f"{WORK}/rank8"],
     ["bench_rank_db.py", "--ranks", "8", "--api-rows", "4000", "--work", f"{WORK}/rank8_quick"]),
    ("rank db 64 ranks vs msprof-analyze", ["bench_rank_db.py", "--ranks", "64", "--api-rows", "170000",
                                            "--work", f"{WORK}/rank64"], None),
    ("cluster queries", ["cluster_queries.py", "--ranks", "8", "--per-rank", "125000"],
     ["cluster_queries.py", "--ranks", "2", "--per-rank", "10000"]),
    ("timeline 10M slices", ["bench_timeline.py", "--db", f"{WORK}/timeline10m.db", "--slices", "10000000",
                             "--threads", "16", "--requests", "300", "--concurrent", "16"],
     ["bench_timeline.py", "--db", f"{WORK}/timeline_quick.db", "--slices", "200000", "--threads", "4",
      "--requests", "50", "--concurrent", "4"]),
    ("REST 16 clients, 10M slices", ["rest_api.py", "--slices", "10000000", "--db", f"{WORK}/rest10m.db",
                                     "--windows", "2000"],
     ["rest_api.py", "--slices", "200000", "--windows", "100"]),
    ("operator profile 100k instructions", ["op_profile.py"],
     ["op_profile.py", "--instructions", "10000", "--events", "20000", "--records", "20000"]),
)


def cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_step(name: str, arguments: list[str]) -> dict:
    command = [sys.executable, str(BENCH / arguments[0]), *arguments[1:]]
    print(f"\n=== {name}\n$ .venv/bin/python bench/{' '.join(arguments)}\nload average before: "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}", flush=True)
    cpu, started = cpu_of_children(), time.perf_counter()
    status = subprocess.run(command, cwd=BENCH.parent).returncode
    result = {"name": name, "status": status, "wall": time.perf_counter() - started, "cpu": cpu_of_children() - cpu,
              "load": os.getloadavg()[0]}
    print(f"--- {name}: exit {status}, {result['wall']:.1f} s wall, {result['cpu']:.1f} s CPU of its processes, "
          f"load average after {result['load']:.1f}", flush=True)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small inputs: check that every benchmark runs")
    parser.add_argument("--only", help="run only the steps whose name contains this text")
    args = parser.parse_args()
    WORK.mkdir(parents=True, exist_ok=True)
    for stale in WORK.glob("*.db*"):  # warehouses of an earlier run: their schema may be older than the code's
        stale.unlink()
    print(f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} cores, "
          f"Python {sys.version.split()[0]}", flush=True)
    results = []
    for name, full, quick in STEPS:
        arguments = quick if args.quick else full
        if arguments is None or (args.only and args.only.lower() not in name.lower()):
            continue
        results.append(run_step(name, arguments))
    print("\n=== summary")
    for result in results:
        print(f"{result['name']}: {'ok' if result['status'] == 0 else 'FAILED'}, {result['wall']:.1f} s wall, "
              f"{result['cpu']:.1f} s CPU, load after {result['load']:.1f}")
    sys.exit(1 if any(result["status"] for result in results) else 0)


if __name__ == "__main__":
    main()
