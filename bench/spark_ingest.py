"""Benchmark of the Spark ingest beside the local one: 64 generated ranks, both in one run.

Generates ``--ranks`` rank folders (``bench/gen_rank_db.py``: a torch_npu rank db each, about
``--api-rows`` PYTORCH_API rows), then ingests them twice, in this order, timing each:

- locally into SQLite with ``--jobs 2`` (``warehouse ingest DIR --db W --jobs 2``), then that
  warehouse exported to Parquet (``warehouse export``): the local way to the same dataset;
- with Spark local on both cores (``warehouse ingest DIR --engine spark --out D --master local[2]``),
  the Spark session started before the clock (a cluster's is running already).

Prints the seconds of each and checks that both datasets hold the same rows per table.
Needs the scale extra and Java 17.

Run: ``.venv/bin/python bench/spark_ingest.py --ranks 64 --api-rows 8000``
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from warehouse import db, export, ingest  # noqa: E402
from warehouse.engines import spark_ingest  # noqa: E402
from warehouse.engines.spark import session  # noqa: E402
from warehouse.synth.rank_db import generate  # noqa: E402


def timed(work) -> float:
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ranks", type=int, default=64)
    parser.add_argument("--api-rows", type=int, default=8000, help="PYTORCH_API rows per rank")
    parser.add_argument("--master", default="local[2]")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-spark-ingest-") as scratch:
        root = Path(scratch)
        paths = generate(root / "run", args.ranks, args.api_rows)
        size = sum(p.stat().st_size for p in paths)
        print(f"{len(paths)} rank dbs, {size / 1e6:.1f} MB; load average {os.getloadavg()[0]:.1f}")

        conn = db.connect(root / "warehouse.db")
        local = timed(lambda: ingest.ingest_paths(conn, [root / "run"], jobs=2))
        conn.close()
        exported = timed(lambda: export.export_parquet(root / "warehouse.db", root / "export"))

        spark = session(args.master, {"spark.sql.shuffle.partitions": "2"})
        spark.sparkContext.setLogLevel("ERROR")
        distributed = timed(lambda: spark_ingest.spark_ingest([root / "run"], root / "dataset", spark=spark))
        spark.stop()

        mine, theirs = (json.loads((root / name / export.MANIFEST).read_text())["tables"] for name in ("dataset", "export"))
        differing = [name for name in theirs if theirs[name]["rows"] != mine[name]["rows"]]
        print(f"| local --jobs 2 ingest | {local:.1f} s |")
        print(f"| + warehouse export | {exported:.1f} s (total {local + exported:.1f} s) |")
        print(f"| Spark ingest, {args.master} | {distributed:.1f} s |")
        print(f"tables with other row counts: {differing or 'none'}; load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
