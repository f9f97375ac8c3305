"""Benchmark of the cluster named queries (steps, kernels, communication, msprof-analyze recipes).

Builds a synthetic cluster (bench/cluster_queries.sql: --ranks ranks x --per-rank kernels, steps,
HCCL operators) and prints, for each query, the CPU time of one run over every rank. For scale:
reference/PEERS.md measured msprof-analyze `cluster` at 22-25 s on 8 ranks x 110k tasks (its run
also reads the rank dbs; the warehouse ingests them once, bench/gen_rank_db.py measures that).

Run: ``.venv/bin/python bench/cluster_queries.py --ranks 8 --per-rank 125000``
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from warehouse import db, queries, sqlfiles

SQL = sqlfiles.text(Path(__file__).parent / "cluster_queries.sql")
VIEWS = ("steps", "kernels", "communication", "cluster")


def build(path: Path, ranks: int, per_rank: int, steps: int) -> None:
    conn = db.connect(path)
    started = time.perf_counter()
    values = {"ranks": ranks, "per_rank": per_rank, "steps": steps}
    conn.execute("BEGIN")
    for statement in sqlfiles.split(SQL):
        conn.execute(statement, {k: v for k, v in values.items() if f":{k}" in statement})
    conn.execute("COMMIT")
    conn.close()
    print(f"built {ranks} ranks x {per_rank:,} kernels, {steps} steps each, in {time.perf_counter() - started:.1f} s")


def cluster_arguments(description: str) -> argparse.Namespace:
    """The synthetic cluster's size from the command line: --ranks, --per-rank (kernels), --steps."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--ranks", type=int, default=8)
    parser.add_argument("--per-rank", type=int, default=125_000)
    parser.add_argument("--steps", type=int, default=50)
    return parser.parse_args()


def main() -> None:
    args = cluster_arguments(__doc__.splitlines()[0])
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "cluster.db"
        build(path, args.ranks, args.per_rank, args.steps)
        conn = db.connect_readonly(path)
        total = 0.0
        for query in queries.registry().values():
            if query.view not in VIEWS or any(p.required for p in query.params):
                continue
            started = time.process_time()
            _, rows = query.run(conn, {})
            elapsed = time.process_time() - started
            total += elapsed
            print(f"{query.name:32s} {elapsed:6.2f} s CPU  {len(rows):6d} rows")
        print(f"{'all of the above':32s} {total:6.2f} s CPU (load average {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
