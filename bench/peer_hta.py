"""Trace JSON next to Holistic Trace Analysis (HTA) and ``json.load``, on one kineto-style file.

HTA reads PyTorch kineto traces (an object with ``distributedInfo`` and ``traceEvents``, ts as
numbers), so the generated torch_npu-like trace (``warehouse.synth.trace_json``) is written in
that shape (``write_kineto_trace``: same events, ts as numbers) into a folder of its own as
``rank-0.json``. Then, each in its own process under ``/usr/bin/time`` (wall, CPU of the
process and its children, peak RSS):

1. ``TraceAnalysis(trace_dir=...)``: HTA's load (its default JSON backend: ``json.loads`` of
   the whole file, then a pandas DataFrame of the complete ``X`` events with interned names;
   it drops counters, flows and metadata) and, as its first answer, ``get_gpu_kernel_breakdown``;
2. ``warehouse ingest FILE --db NEW`` (every event: slices nested, flows bound, counters,
   process/thread names, one transaction);
3. ``json.load`` of the file (the floor: parsing alone, nothing kept).

HTA is not a project dependency: install it into its own venv first::

    python3 -m venv /tmp/hta-venv && /tmp/hta-venv/bin/pip install holistictraceanalysis==0.5.0

Usage::

    .venv/bin/python bench/peer_hta.py [--events 1000000] [--dir /tmp/bench_peer_hta] [--hta /tmp/hta-venv/bin/python]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_rank_db import WAREHOUSE, timed  # noqa: E402

from warehouse.synth.trace_json import write_kineto_trace  # noqa: E402

HTA_LOAD = """
import logging, sys
logging.disable(logging.WARNING)
from hta.trace_analysis import TraceAnalysis
analysis = TraceAnalysis(trace_dir=sys.argv[1])
frame = analysis.t.get_trace(0)
analysis.get_gpu_kernel_breakdown(visualize=False)
print("rows", len(frame))
"""

JSON_LOAD = """
import json, sys
with open(sys.argv[1], "rb") as stream:
    print("events", len(json.load(stream)["traceEvents"]))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/bench_peer_hta"))
    parser.add_argument("--hta", type=Path, default=Path("/tmp/hta-venv/bin/python"), help="python of HTA's venv")
    args = parser.parse_args()
    folder = args.dir / f"kineto_{args.events}"
    trace = folder / "rank-0.json"
    if not trace.exists():
        started = time.perf_counter()
        write_kineto_trace(trace, args.events, seed=1)
        print(f"generated {trace} ({trace.stat().st_size / 1e6:.0f} MB) in {time.perf_counter() - started:.1f} s")
    size_mb = trace.stat().st_size / 1e6
    print(f"input: {args.events:,} events, {size_mb:.0f} MB kineto-style JSON; load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")

    runs = {}
    database = args.dir / "warehouse.db"
    for stale in args.dir.glob("warehouse.db*"):
        stale.unlink()
    runs["warehouse ingest (every event into the warehouse)"] = timed(
        [str(WAREHOUSE), "ingest", str(trace), "--db", str(database), "--quiet"])
    warehouse_mb = sum(p.stat().st_size for p in args.dir.glob("warehouse.db*")) / 1e6
    if args.hta.exists():
        runs["HTA TraceAnalysis load + get_gpu_kernel_breakdown (X events into pandas)"] = timed(
            [str(args.hta), "-c", HTA_LOAD, str(folder)])
    else:
        print(f"HTA: not run, {args.hta} does not exist (see the module docstring to install it)")
    runs["json.load alone (the floor)"] = timed([sys.executable, "-c", JSON_LOAD, str(trace)])

    floor = runs["json.load alone (the floor)"]["wall"]
    for name, run in runs.items():
        print(f"{name}: {run['wall']:.2f} s wall = {args.events / run['wall']:,.0f} events/s, CPU {run['cpu']:.2f} s, "
              f"peak RSS {run['rss']:.0f} MB, {run['wall'] / floor:.2f}x json.load")
    print(f"warehouse on disk: {warehouse_mb:.0f} MB for {size_mb:.0f} MB of JSON; "
          f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
