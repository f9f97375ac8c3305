"""Benchmark (issue 21 item 1): a cluster's first answers from the raw rank dbs, ingest included,
next to msprof-analyze's three cluster modes, in the same run on the same files.

Generates (bench/gen_rank_db.py) a cluster folder, then:

1. ``warehouse ingest DIR --answers-only`` (stage 1 of ``--answers-first``: every rank db staged,
   the analysis.db files ingested whole) into a fresh warehouse, then each of the four answers
   (``step_time``, ``communication_ops``, ``top_kernels``, ``slow_ranks``) with ``warehouse query``:
   wall and CPU time, process starts included.
2. ``warehouse ingest DIR`` over the same warehouse: stage 2, the full ingest of the staged files
   (not with ``--skip-stage2``).
3. With ``--check``: a plain ``warehouse ingest DIR`` into another warehouse, and the two compared
   table by table (bench/compare_warehouses.py), and the four answers of both.
4. ``msprof-analyze cluster -m MODE`` for ``cluster_time_summary``, ``communication_time_sum`` and
   ``compute_op_sum`` (bench/bench_rank_db.py's runner; it also runs the default mode, printed apart).

msprof-analyze is not a project dependency: install it into its own venv first::

    python3 -m venv /tmp/peer-venv && /tmp/peer-venv/bin/pip install msprof-analyze==26.2.0

Usage::

    .venv/bin/python bench/first_answers.py --ranks 64 --api-rows 170000 [--check] [--work DIR]
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_rank_db import WAREHOUSE, bench_peer, cluster_parser, timed  # noqa: E402
from compare_warehouses import compare  # noqa: E402
from gen_rank_db import generate  # noqa: E402


ANSWERS = ("step_time", "communication_ops", "top_kernels", "slow_ranks")
#: msprof-analyze's modes that give these answers (bench_rank_db runs its default run too)
PEER_ANSWER_MODES = ("cluster_time_summary", "communication_time_sum", "compute_op_sum")


def fresh(path: Path) -> Path:
    for stale in path.parent.glob(path.name + "*"):
        stale.unlink()
    return path


def answers(db: Path) -> dict:
    """Each answer by a `warehouse query` process of its own: wall and CPU seconds, and its CSV."""
    return {name: timed([str(WAREHOUSE), "query", name, "--db", str(db), "--format", "csv"]) for name in ANSWERS}


def main() -> None:
    parser = cluster_parser(__doc__, api_rows=170_000)
    parser.add_argument("--check", action="store_true", help="also a plain ingest, compared table by table")
    parser.add_argument("--skip-stage2", action="store_true", help="stage 1 and the peer only (no full ingest)")
    args = parser.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="bench_first_answers_"))
    folder, marker = work / "cluster", work / "cluster.generated"  # the marker outside: it would be ingested
    if not marker.exists() or marker.read_text(encoding="ascii") != f"{args.ranks} {args.api_rows}\n":
        shutil.rmtree(folder, ignore_errors=True)
        paths = generate(folder, args.ranks, args.api_rows)
        marker.write_text(f"{args.ranks} {args.api_rows}\n", encoding="ascii")
    else:
        paths = sorted(folder.glob("*/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_*.db"))
    size = sum(p.stat().st_size for p in paths) / 1e6
    print(f"{args.ranks} generated ranks x {args.api_rows:,} PYTORCH_API rows ({size:.0f} MB of rank dbs) "
          f"under {folder}")
    print(f"uptime before: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}")

    db = fresh(work / "staged.db")
    stage1 = timed([str(WAREHOUSE), "ingest", str(folder), "--db", str(db), "--answers-only", "--jobs", str(args.jobs)])
    first = answers(db)
    first_wall = stage1["wall"] + sum(r["wall"] for r in first.values())
    first_cpu = stage1["cpu"] + sum(r["cpu"] for r in first.values())
    print(f"stage 1 (warehouse ingest --answers-only --jobs {args.jobs}): {stage1['wall']:.2f} s "
          f"(CPU {stage1['cpu']:.2f} s, peak RSS {stage1['rss']:.0f} MB): {stage1['log'].strip().splitlines()[0]}")
    for name, run in first.items():
        print(f"  warehouse query {name}: {run['wall']:.2f} s (CPU {run['cpu']:.2f} s), "
              f"{len(run['log'].splitlines()) - 1} rows")
    print(f"  first answers, ingest included: {first_wall:.2f} s wall, {first_cpu:.2f} CPU-s")
    print(f"  load average after stage 1: {os.getloadavg()[0]:.1f}")

    if args.skip_stage2:
        return peer_side(args, folder, work, first_wall)
    stage2 = timed([str(WAREHOUSE), "ingest", str(folder), "--db", str(db), "--quiet", "--jobs", str(args.jobs)])
    print(f"stage 2 (warehouse ingest, the full ingest of the staged files): {stage2['wall']:.1f} s "
          f"(CPU {stage2['cpu']:.1f} s)")
    later = answers(db)
    same = all(later[name]["log"] == first[name]["log"] for name in ANSWERS)
    print(f"  the four answers after stage 2 {'equal' if same else 'DIFFER from'} those after stage 1")

    if args.check:
        plain = fresh(work / "plain.db")
        full = timed([str(WAREHOUSE), "ingest", str(folder), "--db", str(plain), "--quiet", "--jobs", str(args.jobs)])
        plain_answers = answers(plain)
        lines = compare(plain, db)
        differing = [line for line in lines if line.startswith("DIFF")]
        print(f"plain ingest: {full['wall']:.1f} s (CPU {full['cpu']:.1f} s); staged + stage 2 vs plain: "
              f"{len(lines) - len(differing)} tables the same, {len(differing)} differ {differing[:3]}; answers "
              f"{'equal' if all(plain_answers[n]['log'] == first[n]['log'] for n in ANSWERS) else 'DIFFER'}")

    peer_side(args, folder, work, first_wall)


def peer_side(args, folder: Path, work: Path, first_wall: float) -> None:
    """msprof-analyze's modes on the same folder, and the ratio to the warehouse's first answers."""
    if args.skip_peer:
        return
    if not args.peer.exists():
        print(f"msprof-analyze: not run, {args.peer} does not exist (see the module docstring to install it)")
        return
    started = time.perf_counter()
    peer = bench_peer(folder, work, args.peer)
    for mode, result in peer.items():
        print(f"msprof-analyze cluster -m {mode}: {result['wall']:.2f} s (CPU {result['cpu']:.1f} s), "
              f"peak RSS {result['rss']:.0f} MB{'; errors: ' + result['errors'][0] if result['errors'] else ''}")
    peer_total = sum(peer[mode]["wall"] for mode in PEER_ANSWER_MODES)
    print(f"msprof-analyze's three modes: {peer_total:.2f} s; warehouse first answers, ingest included: "
          f"{first_wall:.2f} s; ratio {peer_total / first_wall:.2f}x (target >= 3x); peer runs took "
          f"{time.perf_counter() - started:.0f} s in all")
    print(f"uptime after: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}")


if __name__ == "__main__":
    main()
