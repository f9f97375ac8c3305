"""mstx_sum beside msprof-analyze's mstx_sum on the same factory cluster of rank dbs.

Writes the two-rank cluster of tests/factories/mstx_cluster.py (ranges nested and repeated in
two steps, start/stop marks on two threads), ingests it into a fresh warehouse and runs
``mstx_sum per_rank=false``, then runs ``msprof-analyze cluster -m mstx_sum`` on the folder and
reads its MSTXAllCannStats (the ranges' host times, per step and name over the ranks). The rank
dbs are written without TASK (see main). Prints
each row of both and whether they are equal (count, sum, min, quartiles, median, max exactly;
mean and standard deviation to 1e-9), and exits 1 when they differ.

msprof-analyze is not a project dependency: install it into its own venv first::

    python3 -m venv /tmp/msa && /tmp/msa/bin/pip install msprof-analyze==26.2.0

Run: ``.venv/bin/python bench/mstx_sum_vs_peer.py --peer /tmp/msa/bin/msprof-analyze``
"""

from __future__ import annotations

import argparse
import math
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.factories.mstx_cluster import write_cluster  # noqa: E402
from warehouse import db, ingest, queries  # noqa: E402

EXACT = ("Count", "SumNs", "MinNs", "Q1Ns", "MedianNs", "Q3Ns", "MaxNs")
CLOSE = ("MeanNs", "StdNs")
#: the query's column of each of the peer's
COLUMNS = {"Count": "count", "SumNs": "total_ns", "MinNs": "min_ns", "Q1Ns": "q1_ns", "MedianNs": "median_ns",
           "Q3Ns": "q3_ns", "MaxNs": "max_ns", "MeanNs": "mean_ns", "StdNs": "std_ns"}


def warehouse_rows(folder: Path, work: Path) -> dict[tuple, dict]:
    conn = db.connect(work / "warehouse.db")
    try:
        results = ingest.ingest_paths(conn, [folder], run_name="mstx")
        failed = [(r.path, r.error) for r in results if r.status != "ok"]
        if failed:
            sys.exit(f"ingest failed: {failed}")
        columns, rows = queries.get("mstx_sum").run(conn, {"per_rank": "false"})
    finally:
        conn.close()
    return {(r["step_id"], r["name"]): r for r in (dict(zip(columns, row)) for row in rows)}


def peer_rows(peer: str, folder: Path, work: Path) -> dict[tuple, dict]:
    out = work / "peer"
    done = subprocess.run([peer, "cluster", "-d", str(folder), "-m", "mstx_sum", "-o", str(out)],
                          capture_output=True, text=True, check=False)
    found = list(out.rglob("cluster_analysis.db"))
    if done.returncode != 0 or not found:
        sys.exit(f"msprof-analyze failed ({done.returncode}): {(done.stdout + done.stderr)[-2000:]}")
    conn = sqlite3.connect(found[0])
    conn.row_factory = sqlite3.Row
    try:
        rows = conn.execute("SELECT * FROM MSTXAllCannStats").fetchall()
    finally:
        conn.close()
    return {(r["StepId"], r["Name"]): dict(r) for r in rows}


def same(peer: dict, ours: dict) -> bool:
    for column in EXACT:
        if float(peer[column]) != float(ours[COLUMNS[column]]):
            return False
    for column in CLOSE:
        a, b = peer[column], ours[COLUMNS[column]]
        if a is None or (isinstance(a, float) and math.isnan(a)):
            if b is not None:
                return False
        elif b is None or not math.isclose(a, b, rel_tol=1e-9):
            return False
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer", required=True, help="the msprof-analyze executable")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        folder = work / "cluster"
        # without TASK: no device task matches an event's connection here, and msprof-analyze
        # subtracts the missing device times of a mark pair (None - None) when TASK is there
        write_cluster(folder, omit=("ACC_PMU", "TASK"))
        ours, theirs = warehouse_rows(folder, work), peer_rows(args.peer, folder, work)
    print(f"{'step':>4} {'name':<16} {'peer (count, sum, median)':<28} {'mstx_sum':<28} equal")
    differ = sorted(set(ours) ^ set(theirs), key=str)
    for key in sorted(set(ours) & set(theirs), key=str):
        p, o = theirs[key], ours[key]
        equal = same(p, o)
        differ += [] if equal else [key]
        print(f"{key[0]:>4} {key[1]:<16} {str((p['Count'], p['SumNs'], p['MedianNs'])):<28} "
              f"{str((o['count'], o['total_ns'], o['median_ns'])):<28} {equal}")
    for key in sorted(set(ours) ^ set(theirs), key=str):
        print(f"{key}: only in {'mstx_sum' if key in ours else 'msprof-analyze'}")
    print(f"{len(theirs)} peer rows, {len(ours)} query rows, {len(differ)} differing")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
