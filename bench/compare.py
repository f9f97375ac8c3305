"""Benchmark: comparing two 8-rank runs once both are ingested (issue 17, target < 1 s).

Generates two clusters of rank dbs with warehouse/synth (as bench_rank_db.py does), ingests
them as runs ``base`` and ``after`` into one warehouse, then times the four compare queries
(compare_step_time, compare_kernels, compare_communication, compare_memory) of ``after``
against ``base``, each once and all four together (best of --repeat).

    .venv/bin/python bench/compare.py [--ranks 8] [--api-rows 50000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from warehouse import queries
from warehouse.report.compare import QUERIES
from warehouse.synth.rank_db import generate

REPO = Path(__file__).resolve().parent.parent
WAREHOUSE = REPO / ".venv" / "bin" / "warehouse"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ranks", type=int, default=8)
    parser.add_argument("--api-rows", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        db_path = work / "runs.db"
        for name in ("base", "after"):
            folder = work / name
            folder.mkdir()
            generate(folder, args.ranks, args.api_rows)
            subprocess.run([str(WAREHOUSE), "ingest", str(folder), "--db", str(db_path), "--run", name, "-q",
                            "--label", f"build={name}"], check=True)
        conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
        base, after = (conn.execute("SELECT run_id FROM run WHERE name = ?", (n,)).fetchone()[0]
                       for n in ("base", "after"))
        kernels = conn.execute("SELECT count(*) FROM kernel").fetchone()[0]
        print(f"two runs of {args.ranks} ranks x {args.api_rows:,} PYTORCH_API rows; {kernels:,} kernels in all")
        timings = {}
        for _ in range(args.repeat):
            for name, _title in QUERIES:
                start = time.perf_counter()
                _, rows = queries.get(name).run(conn, {"base_run_id": base, "run_id": after})
                elapsed = time.perf_counter() - start
                timings[name] = min(timings.get(name, elapsed), elapsed)
                timings[name + " rows"] = len(rows)
        total = sum(timings[name] for name, _ in QUERIES)
        for name, _ in QUERIES:
            print(f"{name:24} {timings[name] * 1000:8.1f} ms  {timings[name + ' rows']:6} rows")
        print(f"{'all four':24} {total * 1000:8.1f} ms  (target < 1000 ms: {'met' if total < 1 else 'NOT met'})")
        start = time.perf_counter()
        subprocess.run([str(WAREHOUSE), "compare", "--db", str(db_path), "base", "after", "-o",
                        str(work / "compare.html")], check=True, stdout=subprocess.DEVNULL)
        print(f"{'warehouse compare -o':24} {(time.perf_counter() - start) * 1000:8.1f} ms  (the whole command, "
              "Python start and the report included)")


if __name__ == "__main__":
    sys.exit(main())
