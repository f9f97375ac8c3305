"""Benchmark: ingest of a large synthetic visualize_data.bin (hot-spot, trace and msTraceKit blocks).

Run from the repository root:  .venv/bin/python bench/op_profile.py [--instructions N] [--cores C]
Prints the file size, the rows per table and the ingest time (end to end, one transaction), as wall
time and as CPU time (the latter is the steadier figure on a shared machine).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.factories.op_profile import Block, cache_records_payload, memory_records_payload  # noqa: E402
from warehouse import db  # noqa: E402
from warehouse.ingest import ingest_file  # noqa: E402


def build(path: Path, instructions: int, cores: int, events: int, records: int) -> None:
    core_names = [f"core{i // 2}.veccore{i % 2}" for i in range(cores)]
    instr = {"Cores": core_names, "Instructions Dtype": {"Instructions": {"L2Cache Hit Rate": 2}},
             "Instructions": [{"Address": hex(0x1000 + 4 * i), "Source": "VADD", "Pipe": "VECTOR",
                               "Cycles": [i % 97] * cores, "Instructions Executed": [1] * cores,
                               "TheoreticalStallCycles": [0] * cores, "RealStallCycles": [i % 5] * cores,
                               "AscendC Inner Code": f"/k.cpp:{i % 400}", "L2Cache Hit Rate": [50.0] * cores}
                              for i in range(instructions)]}
    lines = {"Cores": core_names, "Files": [{"Source": "/k.cpp", "Lines": [
        {"Line": n, "Cycles": [n] * cores, "Instructions Executed": [n] * cores, "Address Range": [["0x1", "0x2"]]}
        for n in range(instructions // 10)]}]}
    trace = {"traceEvents": [{"ph": "X", "pid": "core0.veccore0", "tid": "VECTOR", "name": "VADD", "ts": i, "dur": 1}
                             for i in range(events)]}
    mem = [(3, 0, 1, 0, i, 0x1000 + i, 32, 0x4004BE) for i in range(records)]
    blocks = [Block(0x01, b"int main() {}\n" * 1000, path="/k.cpp"), Block(0x02, json.dumps(trace).encode()),
              Block(0x03, json.dumps(lines).encode()), Block(0x04, json.dumps(instr).encode(), version=0),
              Block(0x0A, memory_records_payload(mem)), Block(0x0B, cache_records_payload([(1,) * 8] * records))]
    path.write_bytes(b"".join(block.to_bytes() for block in blocks))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--instructions", type=int, default=100_000)
    parser.add_argument("--cores", type=int, default=8)
    parser.add_argument("--events", type=int, default=200_000)
    parser.add_argument("--records", type=int, default=200_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "visualize_data.bin"
        build(path, args.instructions, args.cores, args.events, args.records)
        conn = db.connect(Path(tmp) / "warehouse.db")
        started, cpu_started = time.perf_counter(), time.process_time()
        result = ingest_file(conn, path)
        elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu_started
        assert result.status == "ok", result.error
        counts = {t: conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
                  for t in ("instruction", "instruction_metric", "code_line", "_slice", "mem_event", "cache_set")}
        print(f"file {path.stat().st_size / 1e6:.1f} MB, {result.rows} rows in {elapsed:.2f} s wall "
              f"({cpu:.2f} s CPU) = {result.rows / elapsed:,.0f} rows/s wall, {result.rows / cpu:,.0f} rows/CPU-s; "
              f"{counts}")
        conn.close()


if __name__ == "__main__":
    main()
