"""Benchmark: a generated cluster of rank dbs into the warehouse, next to msprof-analyze.

Generates (bench/gen_rank_db.py) a cluster folder, then in the same run:

1. ``warehouse ingest DIR`` (a fresh warehouse): wall time, peak RSS, rows written and
   input rows read per second; then the three cluster answers from the warehouse (step
   time per rank, communication time per rank, top kernels) with ``warehouse sql``.
2. The answers msprof-analyze's default run gives (step trace time, communication time,
   bandwidth and matrix per rank, from the analysis.db torch_npu writes beside each rank
   db): ``warehouse ingest`` of the analysis.db files alone into another warehouse, then
   the four named queries over them, in one process.
3. ``msprof-analyze cluster -d COPY -m MODE`` for the modes that give the same answers
   (cluster_time_summary, communication_time_sum, compute_op_sum) and its default run
   (no ``-m``: the communication recipes), each on its own copy of the folder (it writes
   into its input): wall time, CPU time and peak RSS each.

msprof-analyze is not a project dependency: install it into its own venv first::

    python3 -m venv /tmp/peer-venv && /tmp/peer-venv/bin/pip install msprof-analyze==26.2.0

Usage::

    .venv/bin/python bench/bench_rank_db.py --ranks 64 --api-rows 40000 [--peer /tmp/peer-venv/bin/msprof-analyze]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_rank_db import generate  # noqa: E402

from warehouse.ingest.parts import default_jobs  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
WAREHOUSE = REPO / ".venv" / "bin" / "warehouse"
#: msprof-analyze's modes that give the answers below; "all" is its default run (no -m)
PEER_MODES = ("cluster_time_summary", "communication_time_sum", "compute_op_sum", "all")
#: the cluster answers msprof-analyze's modes give, asked of the warehouse: the named queries
#: (step_time is the profiler's step breakdown, as cluster_time_summary computes it)
ANSWERS = {
    "step time per rank": "step_time",
    "communication time per rank": "communication_ops",
    "top kernels": "top_kernels",
}


def timed(command: list[str]) -> dict:
    """Run a command under /usr/bin/time: wall and CPU (user + sys) seconds, peak RSS in MB, output."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as stats:
        started = time.perf_counter()
        done = subprocess.run(["/usr/bin/time", "-f", "%M %U %S", "-o", stats.name, *command],
                              capture_output=True, text=True)
        wall = time.perf_counter() - started
        rss_kb, user, system = stats.read().strip().splitlines()[-1].split()
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return {"wall": wall, "cpu": float(user) + float(system), "rss": int(rss_kb) / 1024,
            "log": done.stdout + done.stderr}


def input_rows(folder: Path) -> int:
    """Rows of every table of every rank db under the folder."""
    total = 0
    for path in sorted(folder.glob("*/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_*.db")):
        with sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True) as conn:
            tables = [name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            total += sum(conn.execute(f'SELECT COUNT(*) FROM "{name}"').fetchone()[0] for name in tables)
    return total


def bench_warehouse(folder: Path, work: Path, jobs: int) -> dict:
    db = work / "warehouse.db"
    for stale in work.glob("warehouse.db*"):  # a warehouse of an earlier run would hold the files already
        stale.unlink()
    run = timed([str(WAREHOUSE), "ingest", str(folder), "--db", str(db), "--quiet", "--jobs", str(jobs)])
    with sqlite3.connect(db) as conn:
        rows, ranks = conn.execute(
            "SELECT SUM(row_count), COUNT(*) FROM source WHERE kind = 'rank_db' AND status = 'ok'").fetchone()
        failed = conn.execute("SELECT COUNT(*) FROM source WHERE status = 'failed'").fetchone()[0]
    answers = {name: timed([str(WAREHOUSE), "query", query, "--db", str(db), "--format", "csv"])
               for name, query in ANSWERS.items()}
    return {**run, "rows": rows, "ranks": ranks, "failed": failed, "answers": answers,
            "size_mb": db.stat().st_size / 1e6}


#: named queries giving what msprof-analyze's default cluster run writes from analysis.db
EXPORT_ANSWERS = ("step_trace_summary", "communication_time_summary", "communication_bandwidth_summary",
                  "communication_matrix_summary")
RUN_QUERIES = """
import sys
from warehouse import db, queries
conn = db.connect_readonly(sys.argv[1])
for name in sys.argv[2:]:
    columns, rows = queries.get(name).run(conn)
    print(name, len(rows))
"""


def bench_exports(folder: Path, work: Path) -> dict:
    """The analysis.db files alone into a fresh warehouse, then EXPORT_ANSWERS (process starts included)."""
    db = work / "exports.db"
    for stale in work.glob("exports.db*"):
        stale.unlink()
    files = [str(path) for path in sorted(folder.glob("*/ASCEND_PROFILER_OUTPUT/analysis.db"))]
    ingest = timed([str(WAREHOUSE), "ingest", *files, "--db", str(db), "--quiet"])
    answers = timed([sys.executable, "-c", RUN_QUERIES, str(db), *EXPORT_ANSWERS])
    return {"files": len(files), "ingest": ingest, "answers": answers}


def bench_peer(folder: Path, work: Path, peer: Path, modes: tuple[str, ...] = PEER_MODES) -> dict:
    results = {}
    for mode in modes:
        copy = work / f"peer_{mode}"
        shutil.copytree(folder, copy)
        run = timed([str(peer), "cluster", "-d", str(copy), "-o", str(work / f"peer_out_{mode}"), "--force",
                     *(["-m", mode] if mode != "all" else [])])
        out = work / f"peer_out_{mode}" / "cluster_analysis_output" / "cluster_analysis.db"
        tables = {}
        if out.exists():
            with sqlite3.connect(out) as conn:
                names = [n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
                tables = {n: conn.execute(f'SELECT COUNT(*) FROM "{n}"').fetchone()[0] for n in names}
        errors = [line for line in run["log"].splitlines() if "[ERROR]" in line]
        results[mode] = {**run, "tables": tables, "errors": errors}
        shutil.rmtree(copy)
    return results


def cluster_parser(description: str, api_rows: int) -> argparse.ArgumentParser:
    """The options of a benchmark over a generated cluster of rank dbs, beside msprof-analyze."""
    parser = argparse.ArgumentParser(description=description.split("\n\n")[0])
    parser.add_argument("--ranks", type=int, default=64)
    parser.add_argument("--api-rows", type=int, default=api_rows, help="PYTORCH_API rows per rank")
    parser.add_argument("--peer", type=Path, default=Path("/tmp/peer-venv/bin/msprof-analyze"))
    parser.add_argument("--jobs", type=int, default=default_jobs(), help="warehouse ingest --jobs (default: the cores)")
    parser.add_argument("--skip-peer", action="store_true", help="run the warehouse only")
    parser.add_argument("--work", type=Path, help="folder for the inputs and outputs (default: a temp folder)")
    return parser


def main() -> None:
    args = cluster_parser(__doc__, api_rows=40_000).parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="bench_rank_db_"))
    folder = work / "cluster"
    shutil.rmtree(folder, ignore_errors=True)
    started = time.perf_counter()
    paths = generate(folder, args.ranks, args.api_rows)
    size = sum(p.stat().st_size for p in paths) / 1e6
    print(f"generated {args.ranks} ranks x {args.api_rows:,} PYTORCH_API rows: {size:.0f} MB of rank dbs "
          f"in {time.perf_counter() - started:.1f} s under {folder}")
    read = input_rows(folder)
    load_before = f"{os.getloadavg()[0]:.1f}"

    ours = bench_warehouse(folder, work, args.jobs)
    print(f"warehouse ingest --jobs {args.jobs}: {ours['ranks']} ranks ok, {ours['failed']} failed, {ours['rows']:,} rows written, "
          f"{read:,} input rows read, in {ours['wall']:.1f} s = {ours['rows'] / ours['wall']:,.0f} rows written/s, "
          f"{read / ours['wall']:,.0f} input rows/s; CPU {ours['cpu']:.1f} s = {ours['rows'] / ours['cpu']:,.0f} "
          f"rows written per CPU s; peak RSS {ours['rss']:.0f} MB; warehouse {ours['size_mb']:.0f} MB")
    print(f"  load average before/after: {load_before} / {os.getloadavg()[0]:.1f} (2 cores shared with other jobs)")
    for name, answer in ours["answers"].items():
        print(f"  warehouse query ({ANSWERS[name]}), {name}: {answer['wall']:.2f} s (process start included)")
    total = ours["wall"] + sum(answer["wall"] for answer in ours["answers"].values())
    print(f"  ingest + the three answers: {total:.1f} s")
    exports = bench_exports(folder, work)
    exports_total = exports["ingest"]["wall"] + exports["answers"]["wall"]
    print(f"warehouse ingest of the {exports['files']} analysis.db files alone: {exports['ingest']['wall']:.2f} s "
          f"(CPU {exports['ingest']['cpu']:.2f} s); the four export queries ({', '.join(EXPORT_ANSWERS)}; "
          f"rows: {', '.join(exports['answers']['log'].split()[1::2])}) {exports['answers']['wall']:.2f} s; "
          f"together {exports_total:.2f} s")

    if args.skip_peer:
        return
    if not args.peer.exists():
        print(f"msprof-analyze: not run, {args.peer} does not exist (see the module docstring to install it)")
        return
    peer = bench_peer(folder, work, args.peer)
    for mode, result in peer.items():
        rows = ", ".join(f"{name} {count:,}" for name, count in result["tables"].items()) or "no output tables"
        print(f"msprof-analyze cluster -m {mode}: {result['wall']:.1f} s (CPU {result['cpu']:.1f} s of its "
              f"processes), peak RSS {result['rss']:.0f} MB ({rows})")
        for line in result["errors"][:3]:
            print(f"  {line}")
    peer_total = sum(r["wall"] for mode, r in peer.items() if mode != "all")
    print(f"msprof-analyze, the three answer modes: {peer_total:.1f} s; warehouse ingest + answers: {total:.1f} s "
          f"(msprof-analyze / warehouse = {peer_total / total:.2f})")
    print(f"msprof-analyze default run (from analysis.db): {peer['all']['wall']:.1f} s; warehouse from the same "
          f"analysis.db files: {exports_total:.2f} s (msprof-analyze / warehouse = "
          f"{peer['all']['wall'] / exports_total:.1f})")


if __name__ == "__main__":
    main()
