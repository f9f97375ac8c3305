"""Issue 36's targets table in one run: every row measured with its floor or peer from the same run.

| row | measured | floor / peer, same run and input |
| --- | --- | --- |
| one trace JSON | ingest CPU | ``json.load`` of the same file (target <= 1.0x); SQLite's INSERT ... SELECT of the rows it wrote |
| kernel_details.csv (46 columns) | rows per CPU-second (target >= 150,000) | SQLite's INSERT ... SELECT of the rows it wrote |
| rank dbs, ``--jobs 2`` | ingest CPU and wall | SQLite's ATTACH + INSERT ... SELECT of every row the ingest wrote, into a fresh warehouse (target >= 0.5x) |
| a cluster of rank dbs | ``warehouse ingest`` + the three answers | msprof-analyze's ``cluster_time_summary``, ``communication_time_sum``, ``compute_op_sum`` (target: faster) |
| peak RSS per process | the largest of the ingests above | 500 MB |

The machine's 2 cores are shared: the ratios are of CPU-seconds (user + system of every process of
a step, workers included), which depend on the load far less than wall times; the rank dbs' wall
ratio is printed beside them with the load average. Each ingest runs in a child process of its
own (bench/bench_trace_json.py's, or ``warehouse ingest`` under ``/usr/bin/time`` for the cluster,
bench/bench_rank_db.py's), so its peak RSS is its own: for ``--jobs 2`` the largest of the parent
and its workers. The inputs come from the generators the single benchmarks use; msprof-analyze
runs from its own venv (bench/bench_rank_db.py says how to make it), and is left out, said so,
when it is not there.

    .venv/bin/python bench/issue36_targets.py [--quick] [--events N] [--kernel-rows N] [--ranks N --api-rows N]
                                              [--repeat N] [--peer PATH] [--work DIR]
"""

from __future__ import annotations

import argparse
import datetime
import os
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_rank_db import bench_peer, bench_warehouse, input_rows  # noqa: E402
from bench_trace_json import INGEST, JSON_LOAD, child  # noqa: E402
from gen_rank_db import generate  # noqa: E402
from insert_select_floor import copy_rows  # noqa: E402
from text_exports import build as build_kernel_details  # noqa: E402

from warehouse.synth.trace_json import write_trace  # noqa: E402

#: msprof-analyze's modes answering what the warehouse's three cluster answers do
PEER_MODES = ("cluster_time_summary", "communication_time_sum", "compute_op_sum")
#: (events, kernel_details rows, ranks, PYTORCH_API rows per rank) of a full run and of --quick; a rank of
#: 40,000 PYTORCH_API rows (~8 MB) is past MIN_PART_BYTES, so the workers take it (at 20,000, ~4.19 MB,
#: most ranks stay in the parent: one core)
SIZES = {"full": (1_000_000, 300_000, 64, 40_000), "quick": (50_000, 20_000, 4, 2_000)}
RSS_LIMIT_MB = 500


def ingest_child(path: Path, warehouse: Path, jobs: int = 1) -> dict:
    """One ``ingest_paths`` of ``path`` into a fresh ``warehouse`` in a child process."""
    for stale in warehouse.parent.glob(f"{warehouse.name}*"):
        stale.unlink()
    run = child(INGEST, str(path), str(warehouse), "0", str(jobs))
    if run["status"] != "ok":
        raise SystemExit(f"{path}: ingest failed: {run['error']}")
    return run


def trace_json(work: Path, events: int, repeat: int) -> dict:
    """The trace ingest, ``json.load`` of the same file and the INSERT ... SELECT of the rows the ingest
    wrote, alternated ``repeat`` times; the least CPU of each."""
    trace = work / f"trace_{events}.json"
    if not trace.exists():
        write_trace(trace, events, seed=1)
    ingests, loads, copies = [], [], []
    for _ in range(repeat):
        ingests.append(ingest_child(trace, work / "trace.db"))
        loads.append(child(JSON_LOAD, str(trace)))
        copies.append(copy_rows(work / "trace.db", work / "trace_floor.db"))
    ingest, load = (min(runs, key=lambda run: run["cpu_seconds"]) for runs in (ingests, loads))
    copied, copy_cpu, _ = min(copies, key=lambda copy: copy[1])
    return {"events": events, "mb": trace.stat().st_size / 1e6, "cpu": ingest["cpu_seconds"],
            "floor": load["cpu_seconds"], "rss": ingest["peak_rss_mb"], "floor_rss": load["peak_rss_mb"],
            "copied": copied, "copy_cpu": copy_cpu}


def kernel_details(work: Path, rows: int, repeat: int) -> dict:
    """The kernel_details.csv ingest and the INSERT ... SELECT of the rows it wrote; the least CPU of each."""
    csv = work / f"kernel_details_{rows}" / "kernel_details.csv"
    if not csv.exists():
        csv.parent.mkdir()
        build_kernel_details(csv, rows)
    runs, floors = [], []
    for _ in range(repeat):
        runs.append(ingest_child(csv, work / "kernel.db"))
        floors.append(copy_rows(work / "kernel.db", work / "kernel_floor.db"))
    run = min(runs, key=lambda run: run["cpu_seconds"])
    copied, floor, _ = min(floors, key=lambda copy: copy[1])
    return {"rows": run["rows"], "mb": csv.stat().st_size / 1e6, "cpu": run["cpu_seconds"], "copied": copied,
            "floor": floor, "rss": run["peak_rss_mb"]}


def cluster(work: Path, ranks: int, api_rows: int, jobs: int, peer: Path) -> dict:
    """A generated cluster: ``warehouse ingest --jobs``, its three answers, the INSERT ... SELECT of every
    row it wrote, and msprof-analyze's three modes on copies of the folder."""
    folder = work / f"cluster_{ranks}x{api_rows}"
    if not folder.exists():
        generate(folder, ranks, api_rows)
    ours = bench_warehouse(folder, work, jobs)
    if ours["failed"]:
        raise SystemExit(f"{folder}: {ours['failed']} rank db(s) failed to ingest")
    copied, floor_cpu, floor_wall = copy_rows(work / "warehouse.db", work / "cluster_floor.db")
    result = {"ranks": ranks, "api_rows": api_rows, "input_rows": input_rows(folder), "ours": ours,
              "copied": copied, "floor_cpu": floor_cpu, "floor_wall": floor_wall, "peer": None}
    if peer.exists():
        result["peer"] = bench_peer(folder, work, peer, PEER_MODES)
    return result


def table(trace: dict, kernel: dict, ranks: dict, peer: Path, jobs: int) -> list[str]:
    """The targets table, one line per row of the issue's."""
    ours = ranks["ours"]
    answers_cpu = sum(answer["cpu"] for answer in ours["answers"].values())
    answers_wall = sum(answer["wall"] for answer in ours["answers"].values())
    lines = [
        "| input | measured | floor / peer, same run | ratio | target |",
        "| --- | --- | --- | --- | --- |",
        f"| one trace JSON, {trace['events']:,} events, {trace['mb']:.0f} MB | ingest {trace['cpu']:.2f} CPU-s "
        f"| `json.load` {trace['floor']:.2f} CPU-s ({trace['floor_rss']:.0f} MB); INSERT ... SELECT of the "
        f"{trace['copied']:,} rows it wrote {trace['copy_cpu']:.2f} CPU-s ({trace['copy_cpu'] / trace['floor']:.2f}x `json.load`) "
        f"| **{trace['cpu'] / trace['floor']:.2f}x** `json.load` | <= 1.0x |",
        f"| kernel_details.csv, {kernel['rows']:,} rows of 46 columns, {kernel['mb']:.0f} MB | {kernel['cpu']:.2f} CPU-s "
        f"= **{kernel['rows'] / kernel['cpu']:,.0f} rows per CPU-s** | INSERT ... SELECT of the {kernel['copied']:,} "
        f"rows it wrote: {kernel['floor']:.2f} CPU-s = {kernel['copied'] / kernel['floor']:,.0f} rows per CPU-s "
        f"| {kernel['floor'] / kernel['cpu']:.2f}x the floor | >= 150,000 rows/CPU-s |",
        f"| rank dbs, {ranks['ranks']} ranks x {ranks['api_rows']:,} PYTORCH_API rows ({ranks['input_rows']:,} input rows), "
        f"`--jobs {jobs}` | {ours['rows']:,} rows written (source.row_count), ingest {ours['cpu']:.1f} CPU-s, "
        f"{ours['wall']:.1f} s wall | INSERT ... SELECT of every row it wrote ({ranks['copied']:,}): "
        f"{ranks['floor_cpu']:.1f} CPU-s, {ranks['floor_wall']:.1f} s wall "
        f"| **{ranks['floor_cpu'] / ours['cpu']:.2f}x** in CPU; {ranks['floor_wall'] / ours['wall']:.2f}x in wall "
        f"| >= 0.5x on two cores |",
    ]
    ours_total_cpu, ours_total_wall = ours["cpu"] + answers_cpu, ours["wall"] + answers_wall
    if ranks["peer"]:
        peer_cpu = sum(run["cpu"] for run in ranks["peer"].values())
        peer_wall = sum(run["wall"] for run in ranks["peer"].values())
        peer_rss = max(run["rss"] for run in ranks["peer"].values())
        modes = ", ".join(f"{mode} {run['cpu']:.1f}" for mode, run in ranks["peer"].items())
        lines.append(
            f"| the same {ranks['ranks']}-rank cluster, whole | ingest + the three answers {ours_total_cpu:.1f} CPU-s "
            f"({ours_total_wall:.1f} s wall) | msprof-analyze's three modes {peer_cpu:.1f} CPU-s ({modes}; "
            f"{peer_wall:.1f} s wall, peak {peer_rss:.0f} MB) | **{peer_cpu / ours_total_cpu:.2f}x** "
            f"(peer CPU / ours; {peer_wall / ours_total_wall:.2f}x in wall; against the floor of the rows written "
            f"alone {peer_cpu / ranks['floor_cpu']:.2f}x) | faster (> 1x) |")
    else:
        lines.append(f"| the same {ranks['ranks']}-rank cluster, whole | ingest + the three answers "
                     f"{ours_total_cpu:.1f} CPU-s | msprof-analyze not run: {peer} does not exist | | faster |")
    peak = max(trace["rss"], kernel["rss"], ours["rss"])
    lines.append(f"| peak RSS per process | trace {trace['rss']:.0f} MB, kernel_details {kernel['rss']:.0f} MB, "
                 f"rank dbs {ours['rss']:.0f} MB (the largest of parent and workers) | | **{peak:.0f} MB** "
                 f"| <= {RSS_LIMIT_MB} MB |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small inputs: check that every row runs (minutes)")
    parser.add_argument("--events", type=int, help="trace JSON events")
    parser.add_argument("--kernel-rows", type=int, help="kernel_details.csv rows")
    parser.add_argument("--ranks", type=int, help="rank dbs of the cluster")
    parser.add_argument("--api-rows", type=int, help="PYTORCH_API rows per rank")
    parser.add_argument("--jobs", type=int, default=2, help="warehouse ingest --jobs for the rank dbs")
    parser.add_argument("--repeat", type=int, default=1,
                        help="alternated runs of the trace and kernel_details rows; the least CPU of each is kept")
    parser.add_argument("--peer", type=Path, default=Path("/tmp/peer-venv/bin/msprof-analyze"))
    parser.add_argument("--work", type=Path, default=Path("/tmp/issue36_targets"),
                        help="inputs (kept between runs) and outputs")
    args = parser.parse_args()
    default = SIZES["quick" if args.quick else "full"]
    events, kernel_rows, ranks, api_rows = (given if given is not None else fallback for given, fallback in zip(
        (args.events, args.kernel_rows, args.ranks, args.api_rows), default))
    args.work.mkdir(parents=True, exist_ok=True)
    for stale in args.work.glob("peer_*"):
        shutil.rmtree(stale)
    print(f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} cores, load average "
          f"{os.getloadavg()[0]:.1f}", flush=True)
    trace = trace_json(args.work, events, args.repeat)
    print(f"trace JSON done, load average {os.getloadavg()[0]:.1f}", flush=True)
    kernel = kernel_details(args.work, kernel_rows, args.repeat)
    print(f"kernel_details.csv done, load average {os.getloadavg()[0]:.1f}", flush=True)
    ranks_run = cluster(args.work, ranks, api_rows, args.jobs, args.peer)
    print(f"rank dbs done, load average {os.getloadavg()[0]:.1f}\n", flush=True)
    print("\n".join(table(trace, kernel, ranks_run, args.peer, args.jobs)))


if __name__ == "__main__":
    main()
