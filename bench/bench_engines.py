"""Benchmark of the scale-out engines: the same named queries on SQLite, DuckDB and Spark local.

Builds a synthetic 64-rank cluster warehouse (bench/cluster_queries.sql: --ranks ranks x
--per-rank kernels, steps, HCCL operators, inserted directly), exports it with
``warehouse export`` (Parquet, one folder per rank), then runs every cluster query (views
steps, kernels, communication, cluster; those without required parameters) on each engine
and prints the wall time: the best of --repeat runs after one warm-up run (Spark compiles
each plan on its first run; DuckDB and SQLite warm their caches). Also checks that the three
engines return the same number of rows.

Needs the scale extra (``pip install -e '.[scale]'``) and Java 17 for Spark.

Run: ``.venv/bin/python bench/bench_engines.py --ranks 64 --per-rank 20000``
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cluster_queries import VIEWS, build  # noqa: E402

from warehouse import db, export, queries  # noqa: E402
from warehouse.engines.duckdb import DuckDBEngine  # noqa: E402
from warehouse.engines.spark import SparkEngine, session  # noqa: E402


def best_of(run, repeat: int) -> tuple[float, int]:
    """Wall seconds of the fastest of ``repeat`` runs after a warm-up, and the row count."""
    rows = run()
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        rows = run()
        times.append(time.perf_counter() - started)
    return min(times), len(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ranks", type=int, default=64)
    parser.add_argument("--per-rank", type=int, default=20_000)
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--master", default="local[2]", help="Spark master URL")
    parser.add_argument("--driver-memory", default="4g",
                        help="Spark driver memory (local mode runs every task in the driver; 1g, the default, "
                             "cannot broadcast step_time's join at 64 ranks)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path, out = Path(tmp) / "cluster.db", Path(tmp) / "parquet"
        build(path, args.ranks, args.per_rank, args.steps)
        started = time.perf_counter()
        manifest = export.export_parquet(path, out)
        rows = sum(t["rows"] for t in manifest["tables"].values())
        size = sum(f.stat().st_size for f in out.rglob("*.parquet"))
        print(f"export: {rows:,} rows in {time.perf_counter() - started:.1f} s, {size / 2**20:.1f} MiB Parquet "
              f"({path.stat().st_size / 2**20:.1f} MiB SQLite)")
        conn = db.connect_readonly(path)
        duck = DuckDBEngine(out)
        started = time.perf_counter()
        spark = SparkEngine(out, spark=session(args.master, {"spark.sql.shuffle.partitions": "2",
                                                                 "spark.driver.memory": args.driver_memory}))
        spark.spark.sparkContext.setLogLevel("ERROR")
        print(f"spark session and views ({args.master}): {time.perf_counter() - started:.1f} s")
        print(f"{'query':32s} {'sqlite':>8s} {'duckdb':>8s} {'spark':>8s}  rows")
        totals = [0.0, 0.0, 0.0]
        for query in queries.registry().values():
            if query.view not in VIEWS or any(p.required for p in query.params):
                continue
            runs = (lambda: query.run(conn, {})[1], lambda: duck.run(query, {})[1], lambda: spark.run(query, {})[1])
            figures = [best_of(run, args.repeat) for run in runs]
            counts = {count for _, count in figures}
            for i, (seconds, _) in enumerate(figures):
                totals[i] += seconds
            mark = "" if len(counts) == 1 else "  ROW COUNTS DIFFER"
            print(f"{query.name:32s} " + " ".join(f"{s:8.3f}" for s, _ in figures) + f"  {figures[0][1]}{mark}")
        print(f"{'all of the above':32s} " + " ".join(f"{t:8.3f}" for t in totals)
              + f"  (s wall, best of {args.repeat}; load average {os.getloadavg()[0]:.1f})")
        duck.close()


if __name__ == "__main__":
    main()
