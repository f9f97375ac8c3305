"""The Insight timeline search's cost (search/count, search/all/slices), with SQLite's own count as the floor.

Writes a synthetic trace (``warehouse.synth.trace_json``, ``--events`` events, one rank), ingests it
into a fresh warehouse, then sends each search through ``POST /api/v1/insight`` on Flask's test client
(the whole request path but the socket) for the trace's most common slice name, a 3-letter prefix of
it and a text no slice holds, and prints each command's best process-CPU of ``--repeat``. The floor is
SQLite counting the same name's slices with ``LIKE`` over the slice view, in the same process.

    .venv/bin/python bench/insight_search.py [--events 1000000] [--dir /tmp/bench_insight_search] [--repeat 3]
"""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import time
from pathlib import Path

from service import create_app
from warehouse import db, ingest
from warehouse.synth.trace_json import write_trace


def best_cpu(fn, repeat: int):
    """(the best process-CPU seconds of ``repeat`` calls of ``fn``, its last answer)."""
    times, answer = [], None
    for _ in range(repeat):
        start = time.process_time()
        answer = fn()
        times.append(time.process_time() - start)
    return min(times), answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/bench_insight_search"))
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    shutil.rmtree(args.dir, ignore_errors=True)
    write_trace(args.dir / "rank0" / "trace_view.json", args.events, seed=1, rank=0)
    conn = db.connect(args.dir / "warehouse.db")
    ingest.ingest_paths(conn, [args.dir / "rank0"])
    conn.close()
    conn = sqlite3.connect(args.dir / "warehouse.db")
    slices = conn.execute("SELECT count(*) FROM slice").fetchone()[0]
    name, named = conn.execute("SELECT name, count(*) FROM slice GROUP BY name ORDER BY 2 DESC LIMIT 1").fetchone()
    client = create_app({"DATABASE": str(args.dir / "warehouse.db"), "TESTING": True}).test_client()

    def post(command: str, params: dict) -> dict:
        return client.post("/api/v1/insight", json={"id": 1, "moduleName": "timeline", "type": "request",
                                                    "command": command, "params": params}).get_json()

    card = post("files/getProjectExplorer", {})["body"]["projectDirectoryList"][0]["children"][0]["rankId"]
    print(f"{args.events:,} events: {slices:,} slices on one card; most common name {name!r} ({named:,} slices)")
    floor, _ = best_cpu(lambda: conn.execute("SELECT count(*) FROM slice WHERE name LIKE ?",
                                             (f"%{name}%",)).fetchone(), args.repeat)
    print(f"floor, SQLite's count of LIKE over slice: {floor:.3f} CPU-s")
    for text in (name, name[:3], "no such name"):
        for command, extra in (("search/count", {}), ("search/all/slices", {"pageSize": 10, "current": 1})):
            cpu, answer = best_cpu(lambda: post(command, {"cardId": card, "searchContent": text, **extra}),
                                   args.repeat)
            found = answer["body"].get("totalCount", answer["body"].get("count"))
            print(f"{command:18} {text!r:16} {cpu:.3f} CPU-s ({cpu / floor:.1f}x the floor), {found:,} found")


if __name__ == "__main__":
    main()
