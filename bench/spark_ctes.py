"""What computing each shared CTE once saves on Spark (warehouse/engines/spark_ctes.py).

Runs named queries on the Spark engine twice: with their CTEs inlined, as Spark itself plans
them (every read of a CTE computes it again), and as the engine runs them (each CTE read more
than once computed once, checkpointed as a view; ``--ways``). For each way it prints the Parquet scans in the
plans Spark executed, the CPU-seconds of Spark's processes (the JVM and its Python workers,
from /proc) and the wall seconds of the query's first run, and checks that the ways give the same rows.

The data: the scale tests' warehouse (tests/scale/conftest.py, built here), or ``--db W``,
exported to Parquet. Spark runs as in the tests: local[2], two shuffle partitions, the tests'
JVM options (tests/scale/spark_jvm.py).

Run: ``.venv/bin/python bench/spark_ctes.py rule_host_tiling_not_sunk``
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "tests")]

from tests.scale.conftest import build_warehouse  # noqa: E402
from tests.scale.spark_jvm import JVM_OPTIONS  # noqa: E402
from warehouse import export, queries  # noqa: E402
from warehouse.engines import spark_ctes  # noqa: E402
from warehouse.engines.base import generate  # noqa: E402
from warehouse.engines.spark import SparkEngine, session  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(root: int) -> float:
    """User and system CPU-seconds of process ``root`` and every process below it, from /proc."""
    children: dict[int, list[int]] = {}
    times: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # ended meanwhile
        children.setdefault(int(fields[1]), []).append(int(entry.name))
        times[int(entry.name)] = (int(fields[11]) + int(fields[12])) / TICKS
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        total += times.get(pid, 0.0)
        todo += children.get(pid, [])
    return total


def scans(spark, after: int) -> int:
    """Parquet scans in the physical plans of the SQL executions numbered ``after`` and later."""
    executions = spark._jsparkSession.sharedState().statusStore().executionsList()
    return sum(executions.apply(i).physicalPlanDescription().count("Scan parquet ")
               for i in range(executions.size()) if executions.apply(i).executionId() >= after)


def executions(spark) -> int:
    return spark._jsparkSession.sharedState().statusStore().executionsList().size()


def measure(engine, jvm: int, run) -> tuple[list, float, float, int]:
    """``run()``'s rows, Spark's CPU-seconds, wall seconds and Parquet scans."""
    first, cpu, started = executions(engine.spark), cpu_seconds(jvm), time.perf_counter()
    rows = run()
    wall, cpu = time.perf_counter() - started, cpu_seconds(jvm) - cpu
    return rows, cpu, wall, scans(engine.spark, first)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="+", help="named queries (their default parameters)")
    parser.add_argument("--db", type=Path, help="a warehouse (default: the scale tests' warehouse, built here)")
    parser.add_argument("--ways", default="inlined,once", help="which ways, in this order (inlined, once)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = args.db or build_warehouse(Path(tmp))
        export.export_parquet(path, Path(tmp) / "parquet")
        spark = session("local[2]", {"spark.sql.shuffle.partitions": "2", "spark.default.parallelism": "2",
                                     "spark.driver.extraJavaOptions": JVM_OPTIONS})
        spark.sparkContext.setLogLevel("ERROR")
        engine = SparkEngine(Path(tmp) / "parquet", spark=spark)
        jvm = spark.sparkContext._gateway.proc.pid
        engine.run(queries.get("runs"))  # the JVM's start and first plan are no query's cost
        print(f"{'query':32s} {'way':10s} {'scans':>6s} {'CPU-s':>7s} {'wall s':>7s}  rows")
        for name in args.names:
            query = queries.get(name)
            bound = query.bind({})

            def inlined():
                return [tuple(r) for r in spark.sql(generate(engine.tree(query), "spark"), args=bound).collect()]

            def computed_once():
                with spark_ctes.frame(spark, engine.tree(query), bound) as frame:
                    return [tuple(r) for r in frame.collect()]

            answers = []
            for way in args.ways.split(","):
                run = {"inlined": inlined, "once": computed_once}[way]
                rows, cpu, wall, planned = measure(engine, jvm, run)
                answers.append(sorted(map(repr, rows)))
                print(f"{name:32s} {way:10s} {planned:6d} {cpu:7.1f} {wall:7.1f}  {len(rows)}")
            assert all(rows == answers[0] for rows in answers), f"{name}: the ways answer differently"
        print(f"load average {os.getloadavg()[0]:.1f} (1 min), {os.cpu_count()} cores")
        spark.stop()


if __name__ == "__main__":
    main()
