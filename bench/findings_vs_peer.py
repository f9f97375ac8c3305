"""The warehouse's cluster findings beside msprof-analyze's conclusions on the same real files.

For each real multi-rank sample (a folder of rank exports under the real samples' folder) it
copies the folder (msprof-analyze writes beside its input), then:

1. ``warehouse ingest`` + ``warehouse analyze`` into a fresh warehouse, and prints the findings of
   the cluster rules (slow rank, pipeline stage, data-parallel imbalance, slow collective) with
   their severity and message, and the CPU time of the two commands;
2. ``msprof-analyze cluster -m slow_rank`` and ``-m communication_bottleneck`` on the copy, and
   prints what they conclude (its SlowRank and CommunicationBottleneck tables), and their time.

A finding is done when the peer's conclusion on the same files supports it: this prints both so
that a person (and bench/RESULTS.md) can say where they agree and, where they do not, why.

msprof-analyze is not a project dependency: install it into its own venv first::

    python3 -m venv /tmp/peer-venv && /tmp/peer-venv/bin/pip install msprof-analyze==26.2.0

Run: ``.venv/bin/python bench/findings_vs_peer.py --realdata ../shared/realdata
--peer /tmp/peer-venv/bin/msprof-analyze``
"""

from __future__ import annotations

import argparse
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: the real multi-rank samples, relative to the real samples' folder
SAMPLES = (
    "msinsight/pytorch/db/level0",
    "msinsight/pytorch/db/level1",
    "msinsight/pytorch/text/level0",
    "msinsight/pytorch/text/level1",
    "msinsight/pytorch_2024-10-21/db/level0",
)
#: the finding types a cluster conclusion of the peer speaks to
CLUSTER_RULES = ("slow_rank_suspected", "pipeline_stage_imbalance", "dp_workload_imbalance",
                 "communication_collective_slow")
PEER_MODES = {"slow_rank": "SELECT rankId, slowAffectCount FROM SlowRank",
              "communication_bottleneck": "SELECT communicationOp, slowRankId, fastRankId, reason "
                                          "FROM CommunicationBottleneck ORDER BY communicationOp"}


def run(command: list[str]) -> dict:
    """Run a command to its end; its wall and CPU seconds (children's), exit code and output tail."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall": time.perf_counter() - start, "cpu": cpu, "code": result.returncode,
            "tail": (result.stdout + result.stderr).strip().splitlines()[-3:]}


def warehouse_findings(folder: Path, work: Path) -> None:
    """Ingest and analyze one sample; print its cluster findings."""
    db_path = work / "warehouse.db"
    warehouse = [sys.executable, "-m", "warehouse"]
    ingest = run([*warehouse, "ingest", str(folder), "--db", str(db_path)])
    analyze = run([*warehouse, "analyze", "--db", str(db_path)])
    print(f"  warehouse ingest {ingest['cpu']:.1f} CPU-s, analyze {analyze['cpu']:.1f} CPU-s "
          f"(exit {ingest['code']}, {analyze['code']})")
    with sqlite3.connect(db_path) as conn:
        marks = ", ".join("?" * len(CLUSTER_RULES))
        rows = conn.execute(
            f"SELECT finding_type, rank_id, step_id, severity, confidence, message FROM finding "
            f"WHERE finding_type IN ({marks}) ORDER BY finding_type, rank_id, step_id", CLUSTER_RULES).fetchall()
    print(f"  warehouse: {len(rows)} cluster finding(s)")
    for finding_type, rank_id, step_id, severity, confidence, message in rows:
        print(f"    {finding_type} rank {rank_id} step {step_id} [{severity}/{confidence}]: {message}")


def peer_conclusions(peer: str, folder: Path, work: Path) -> None:
    """Run the peer's modes on the copy; print what each concludes."""
    output = work / "peer"
    for mode, query in PEER_MODES.items():
        result = run([peer, "cluster", "-d", str(folder), "-m", mode, "-o", str(output)])
        print(f"  msprof-analyze -m {mode}: {result['wall']:.1f} s wall, {result['cpu']:.1f} CPU-s "
              f"(exit {result['code']})")
        database = output / "cluster_analysis_output" / "cluster_analysis.db"
        try:
            with sqlite3.connect(database) as conn:
                rows = conn.execute(query).fetchall()
        except sqlite3.Error as error:  # a mode that finds nothing writes no table
            print(f"    no table ({error}); it said: {result['tail'][-2:]}")
            continue
        for row in rows:
            print(f"    {' | '.join(str(value) for value in row)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--realdata", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "realdata")
    parser.add_argument("--peer", default="/tmp/peer-venv/bin/msprof-analyze")
    parser.add_argument("--samples", nargs="*", default=SAMPLES)
    args = parser.parse_args()
    peer_ok = Path(args.peer).exists()
    for sample in args.samples:
        print(f"{sample}:")
        with tempfile.TemporaryDirectory(prefix="findings-vs-peer-") as temp:
            work = Path(temp)
            folder = work / "input"
            shutil.copytree(args.realdata / sample, folder)
            warehouse_findings(folder, work)
            if peer_ok:
                peer_conclusions(args.peer, folder, work)
            else:
                print(f"  msprof-analyze: not run, {args.peer} does not exist (see the module docstring)")


if __name__ == "__main__":
    main()
