"""Benchmark: how long the `warehouse` command takes to answer on a small warehouse (issue 20 item 5).

Target: `warehouse sql` and `warehouse query NAME` within about 2x of starting Python and
importing sqlite3, the floor of any answer. Times, as separate processes, the median of
--runs of each command (the commands take turns, so a change in the machine's load falls on
all of them): the baseline `python -c "import sqlite3"`, `warehouse sql`, `warehouse query
step_time` and `warehouse --help`; wall time and CPU time (user + system) of the process.

The warehouse is the demo's (`warehouse demo --no-serve` into a temporary folder) unless --db
names one. Bytecode is cached in the temporary folder (PYTHONPYCACHEPREFIX, one warm-up run
each) as an installed package has it, whatever PYTHONDONTWRITEBYTECODE says: compiling the
sources on every run would measure the compiler.

    .venv/bin/python bench/cli_startup.py [--runs 21] [--db run.db]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PYTHON = REPO / ".venv" / "bin" / "python"
WAREHOUSE = REPO / ".venv" / "bin" / "warehouse"


def commands(db_path: Path) -> dict[str, list[str]]:
    """The timed commands by label, the baseline first."""
    return {
        "python -c 'import sqlite3'": [str(PYTHON), "-c", "import sqlite3"],
        "warehouse sql": [str(WAREHOUSE), "sql", "SELECT count(*) AS kernels FROM kernel", "--db", str(db_path)],
        "warehouse query step_time": [str(WAREHOUSE), "query", "step_time", "--db", str(db_path)],
        "warehouse --help": [str(WAREHOUSE), "--help"],
    }


def timed(argv: list[str], env: dict) -> tuple[float, float]:
    """Wall and CPU seconds of one run of ``argv`` (which must succeed)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=21, help="Runs of each command (the median is printed).")
    parser.add_argument("--db", type=Path, default=None, help="A warehouse to query (default: the demo's).")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        db_path = args.db
        if db_path is None:
            db_path = Path(tmp) / "demo" / "warehouse.db"
            subprocess.run([str(WAREHOUSE), "demo", "--dir", str(db_path.parent), "--no-serve"], env=env, check=True,
                           stdout=subprocess.DEVNULL)
        timed_commands = commands(db_path)
        for argv in timed_commands.values():
            timed(argv, env)  # warm-up: writes the bytecode cache
        samples: dict[str, list[tuple[float, float]]] = {label: [] for label in timed_commands}
        for _ in range(args.runs):
            for label, argv in timed_commands.items():
                samples[label].append(timed(argv, env))
    print(f"median of {args.runs} runs each; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'command':28} {'wall ms':>8} {'CPU ms':>8} {'x baseline (wall, CPU)':>24}")
    baseline = None
    for label, runs in samples.items():
        wall = statistics.median(w for w, _ in runs) * 1000
        cpu = statistics.median(c for _, c in runs) * 1000
        baseline = baseline or (wall, cpu)
        print(f"{label:28} {wall:8.0f} {cpu:8.0f} {wall / baseline[0]:13.1f}x {cpu / baseline[1]:8.1f}x")


if __name__ == "__main__":
    sys.exit(main())
