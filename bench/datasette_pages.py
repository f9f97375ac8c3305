"""Time what the Datasette plugin adds to a warehouse's pages: the database page (every
canned query, the metadata), a table page (unit tooltips on every cell), and the data
requests of each picture page, through Datasette's in-process client.

Usage: .venv/bin/python bench/datasette_pages.py --db WAREHOUSE.db [--repeat 5]
Prints the median time of each request in milliseconds.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from pathlib import Path

from datasette.app import Datasette


def requests(name: str) -> list[str]:
    """The requests a user's visit makes: pages, then the pictures' JSON fetches."""
    return [
        f"/{name}",
        f"/{name}/slice?_size=100",
        f"/{name}/memory_record?_size=1000",
        f"/{name}/timeline_threads.json?_shape=objects",
        f"/{name}/step_time.json?_shape=objects",
        f"/{name}/slow_ranks.json?_shape=objects",
        f"/{name}/memory_peak.json?_shape=objects",
        f"/{name}/op_runs.json?_shape=objects",
        f"/-/warehouse/{name}/timeline",
    ]


async def measure(db_path: Path, repeat: int) -> None:
    ds = Datasette(immutables=[str(db_path)], settings={"max_returned_rows": 20000})
    name = db_path.stem
    for path in requests(name):
        times, status = [], None
        for _ in range(repeat + 1):  # the first request warms caches and is not counted
            start = time.perf_counter()
            response = await ds.client.get(path)
            times.append(time.perf_counter() - start)
            status = response.status_code
        print(f"{statistics.median(times[1:]) * 1000:8.1f} ms  {status}  {path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True, type=Path)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    asyncio.run(measure(args.db, args.repeat))


if __name__ == "__main__":
    main()
