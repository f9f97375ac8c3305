"""Trace JSON ingest speed and memory, with ``json.load`` on the same file as the floor.

Generates a torch_npu-like trace (``warehouse.synth.trace_json``: bare array, string ts,
nested slices, flows, counters) of 1M events (10M with ``--big``), then, each in a child
process of its own so that peak RSS is the child's (each ``--repeat`` times, the fastest kept): ingests it into a fresh warehouse with
``warehouse ingest`` code (the frame: sha256, one transaction, the trace JSON source), and
runs ``json.load`` alone on the same file. Prints events/s, peak RSS, warehouse size, and
appends them to bench/RESULTS.md with ``--record``.

    .venv/bin/python bench/bench_trace_json.py [--events 1000000] [--big] [--gz] [--dir /tmp/bench_trace_json]
                                               [--repeat 3] [--floor | --no-floor] [--profile] [--record]
                                               [--ranks N --jobs J]

``--ranks N`` writes N traces of ``--events`` events each (one per rank folder, as a
cluster's ``trace_view.json`` files) and ingests the folder with ``--jobs`` worker processes.

The peers on the same events are in bench/peer_hta.py (Holistic Trace Analysis on the
kineto-style copy) and bench/run_all.py runs both.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from warehouse.synth.trace_json import write_trace

REPO = Path(__file__).resolve().parent.parent

INGEST = """
import json, resource, sys, time
from pathlib import Path
from warehouse import db, ingest
path, db_path, profile, jobs = Path(sys.argv[1]), sys.argv[2], sys.argv[3] == "1", int(sys.argv[4])
conn = db.connect(db_path)
started = time.perf_counter(); cpu = time.process_time()
if profile:
    import cProfile, pstats
    profiler = cProfile.Profile()
    results = [profiler.runcall(ingest.ingest_file, conn, path)]
    pstats.Stats(profiler, stream=sys.stderr).sort_stats("tottime").print_stats(15)
else:
    results = ingest.ingest_paths(conn, [path], jobs=jobs)
elapsed = time.perf_counter() - started
conn.close()
children = resource.getrusage(resource.RUSAGE_CHILDREN)
failed = [result for result in results if result.status != "ok"]
print(json.dumps({"status": failed[0].status if failed else "ok", "error": failed[0].error if failed else None,
                  "rows": sum(result.rows for result in results), "seconds": elapsed,
                  "cpu_seconds": time.process_time() - cpu + children.ru_utime + children.ru_stime,
                  "peak_rss_mb": max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, children.ru_maxrss) / 1024}))
"""

JSON_LOAD = """
import gzip, json, resource, sys, time
path = sys.argv[1]
started = time.perf_counter(); cpu = time.process_time()
with (gzip.open(path) if path.endswith(".gz") else open(path, "rb")) as stream:
    events = json.load(stream)
elapsed = time.perf_counter() - started
print(json.dumps({"events": len(events), "seconds": elapsed, "cpu_seconds": time.process_time() - cpu,
                  "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def child(code: str, *args: str) -> dict:
    """Run ``code`` in a fresh interpreter; its last stdout line is a JSON object."""
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=REPO)
    if done.returncode:
        raise SystemExit(done.stderr)
    if done.stderr:
        print(done.stderr, file=sys.stderr)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--big", action="store_true", help="10,000,000 events")
    parser.add_argument("--gz", action="store_true", help="gzip the generated trace")
    parser.add_argument("--dir", type=Path, default=Path("/tmp/bench_trace_json"))
    parser.add_argument("--floor", action=argparse.BooleanOptionalAction, default=None,
                        help="also time json.load on the file (default: yes, except with --big: it needs ~6 GB per GB)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs of each measurement; the fastest is reported (the machine is shared and noisy)")
    parser.add_argument("--profile", action="store_true", help="cProfile the ingest (slower; figures not comparable)")
    parser.add_argument("--ranks", type=int, default=1, help="traces (one per rank folder), each of --events events")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes of the ingest (warehouse ingest --jobs)")
    parser.add_argument("--record", action="store_true", help="append the figures to bench/RESULTS.md")
    options = parser.parse_args()
    events = 10_000_000 if options.big else options.events
    options.dir.mkdir(parents=True, exist_ok=True)
    name = f"trace_{events}.json{'.gz' if options.gz else ''}"
    if options.ranks > 1:
        trace = options.dir / f"cluster_{options.ranks}x{events}"
        files = [trace / f"rank{rank}_ascend_pt" / "ASCEND_PROFILER_OUTPUT" / name for rank in range(options.ranks)]
    else:
        trace = options.dir / name
        files = [trace]
    for seed, file in enumerate(files, start=1):
        if not file.exists():
            started = time.perf_counter()
            file.parent.mkdir(parents=True, exist_ok=True)
            write_trace(file, events, seed=seed)
            print(f"generated {file} ({file.stat().st_size / 1e6:.0f} MB) in {time.perf_counter() - started:.1f} s")
    events *= len(files)
    warehouse = options.dir / "warehouse.db"
    load_before = os.getloadavg()[0]  # the 2 cores are shared: the figures need the load they ran at
    runs = []
    for _ in range(1 if options.profile else options.repeat):
        for stale in options.dir.glob("warehouse.db*"):
            stale.unlink()
        runs.append(child(INGEST, str(trace), str(warehouse), "1" if options.profile else "0", str(options.jobs)))
        if runs[-1]["status"] != "ok":
            raise SystemExit(f"ingest failed: {runs[-1]['error']}")
    ingest = min(runs, key=lambda run: run["seconds"])
    size_mb = sum(p.stat().st_size for p in options.dir.glob("warehouse.db*")) / 1e6
    lines = [
        f"- {events:,} events in {len(files)} file(s), {sum(f.stat().st_size for f in files) / 1e6:.0f} MB"
        f"{' gzip' if options.gz else ''}, --jobs {options.jobs}: "
        f"ingest (best of {len(runs)}) {ingest['seconds']:.2f} s = **{events / ingest['seconds']:,.0f} events/s** end to end "
        f"(CPU {ingest['cpu_seconds']:.2f} s), {ingest['rows']:,} rows, peak RSS {ingest['peak_rss_mb']:.0f} MB, "
        f"warehouse {size_mb:.0f} MB",
    ]
    if options.floor if options.floor is not None else not options.big and options.ranks == 1:
        floor = min((child(JSON_LOAD, str(trace)) for _ in range(options.repeat)), key=lambda run: run["seconds"])
        lines.append(f"- `json.load` alone on the same file (best of {options.repeat}): {floor['seconds']:.2f} s "
                     f"(CPU {floor['cpu_seconds']:.2f} s, {events / floor['seconds']:,.0f} events/s), peak RSS "
                     f"{floor['peak_rss_mb']:.0f} MB; ingest / json.load = **{ingest['seconds'] / floor['seconds']:.2f}x** "
                     f"wall, **{ingest['cpu_seconds'] / floor['cpu_seconds']:.2f}x** CPU")
    lines.append(f"- load average (1 min) {load_before:.1f} before the runs, {os.getloadavg()[0]:.1f} after")
    print("\n".join(lines))
    if options.record:
        command = "`.venv/bin/python bench/bench_trace_json.py " + " ".join(sys.argv[1:]) + "`"
        stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
        results = REPO / "bench" / "RESULTS.md"
        text = results.read_text(encoding="utf-8") if results.exists() else ""
        heading = "## Trace JSON ingest"
        entry = f"\n{command.replace(' --record', '')}, {stamp}, this 2-core machine:\n\n" + "\n".join(lines) + "\n"
        headings = [line for line in text.splitlines() if line.startswith("## ")]
        if not headings or headings[-1] != heading:  # others append too: open our section again at the end
            entry = f"\n{heading}\n" + entry
        with results.open("a", encoding="utf-8") as out:
            out.write(entry)


if __name__ == "__main__":
    main()
