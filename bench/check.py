"""How long ``warehouse check`` takes on a big warehouse: integrity_check and each audit.

Writes a trace JSON of nested slices (8 threads, each top-level slice with one child,
counters and flows), ingests it into a fresh warehouse and times the parts of the check.

    .venv/bin/python bench/check.py [--slices 2000000] [--dir /tmp/bench_check]
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import time
from pathlib import Path

from warehouse import audits, db, ingest

THREADS = 8


def write_trace(path: Path, slices: int) -> None:
    """A bare-array trace of ``slices`` X events: parents with one child each, plus counters and flows."""
    with path.open("w") as out:
        out.write("[")
        for n, event in enumerate(_events(slices)):
            out.write(("," if n else "") + json.dumps(event))
        out.write("]")


def _events(slices: int):
    rng = random.Random(1)
    for tid in range(THREADS):
        for i in range(slices // (2 * THREADS)):
            ts = 1_700_000_000_000_000 + i * 100
            yield {"ph": "X", "name": f"aten::op{rng.randint(0, 60)}", "cat": "cpu_op", "pid": 1, "tid": tid,
                   "ts": ts, "dur": rng.randint(20, 90)}
            yield {"ph": "X", "name": "child", "cat": "cpu_op", "pid": 1, "tid": tid, "ts": ts + 5,
                   "dur": rng.randint(1, 14)}
            if i % 10 == 0:
                yield {"ph": "C", "name": "memory", "pid": 1, "tid": tid, "ts": ts, "args": {"used": i}}
            if tid == 0 and i % 40 == 0:
                yield {"ph": "s", "name": "fwdbwd", "cat": "fwdbwd", "id": i, "pid": 1, "tid": 0, "ts": ts + 6}
                yield {"ph": "f", "bp": "e", "name": "fwdbwd", "cat": "fwdbwd", "id": i, "pid": 1, "tid": 1, "ts": ts + 6}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slices", type=int, default=2_000_000)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/bench_check"))
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    trace, warehouse = args.dir / "trace.json", args.dir / "warehouse.db"
    write_trace(trace, args.slices)
    for stale in args.dir.glob("warehouse.db*"):
        stale.unlink()
    (result,) = ingest.ingest_paths(db.connect(warehouse), [trace])
    assert result.status == "ok", result.error
    conn = sqlite3.connect(f"{warehouse.as_uri()}?mode=ro", uri=True)
    (count,) = conn.execute("SELECT count(*) FROM _slice").fetchone()
    print(f"{count:,} slices, {warehouse.stat().st_size / 1e6:.0f} MB warehouse")
    started = time.perf_counter()
    conn.execute("PRAGMA integrity_check").fetchall()
    print(f"  {'integrity_check':<30} {time.perf_counter() - started:6.2f} s")
    total = 0.0
    for audit in audits.load_audits():
        started = time.perf_counter()
        audits.run_audit(conn, audit)
        elapsed = time.perf_counter() - started
        total += elapsed
        print(f"  {audit.name:<30} {elapsed:6.2f} s")
    print(f"  {'all audits':<30} {total:6.2f} s")
    started = time.perf_counter()
    report = audits.check_warehouse(warehouse)
    print(f"warehouse check: {time.perf_counter() - started:.2f} s, {'ok' if report.ok else report.problems}")


if __name__ == "__main__":
    main()
