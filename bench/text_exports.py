"""Benchmark: ingest of a large synthetic CSV export: kernel_details.csv (46 columns) and its
classification, or memory_record.csv (one record per change of the memory held: the largest memory export).

Run from the repository root:  .venv/bin/python bench/text_exports.py [--rows N] [--export memory_record]
Prints the file size, the ingest time end to end (parse, convert, insert, and for kernels classify;
one transaction), separately the time of classify_source alone on the kernel rows, and the floor:
SQLite's own ``INSERT ... SELECT`` of the same rows from the ingested warehouse into the table (and its
indexes) of a new one, what writing the rows costs whatever reads them; wall and CPU time (the machine
is shared: CPU time is the figure that does not depend on the others).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # the factories import each other as `factories`

from tests.factories.text_exports import (  # noqa: E402
    KERNEL_HEADER_46,
    MEMORY_RECORD_HEADER,
    KernelRowFactory,
    MemoryRecordFactory,
    cell,
)
from warehouse import db  # noqa: E402
from warehouse.model.classify import classify_source  # noqa: E402
from warehouse.ingest import ingest_file  # noqa: E402
from insert_select_floor import copy_rows  # noqa: E402

CORES = ("AI_CORE", "AI_VECTOR_CORE", "MIX_AIC", "MIX_AIV", "HCCL", "AI_CPU")
NAMES = ("MatMulV2", "TransData", "FlashAttentionScore", "GroupedMatmul", "hcom_allReduce_", "Cast")


def build(path: Path, rows: int) -> None:
    template = KernelRowFactory.build()
    with path.open("w", encoding="utf-8", newline="") as out:
        out.write(",".join(KERNEL_HEADER_46) + "\r\n")
        for n in range(rows):
            row = dict(template)
            row["Name"] = f"{NAMES[n % len(NAMES)]}_{n % 500}"
            row["Accelerator Core"] = CORES[n % len(CORES)]
            row["Start Time(us)"] = f"1736408883{n:06d}.{n % 1000:03d}"
            row["Task ID"] = str(n)
            out.write(",".join(cell(name, row.get(name)) for name in KERNEL_HEADER_46) + "\r\n")


def build_memory_record(path: Path, rows: int) -> None:
    """The factory's two records (the APP and PTA components) in turn, each a microsecond later."""
    templates = MemoryRecordFactory.build().rows
    with path.open("w", encoding="utf-8", newline="") as out:
        out.write(",".join(MEMORY_RECORD_HEADER) + "\r\n")
        for n in range(rows):
            row = dict(templates[n % len(templates)])
            row["Timestamp(us)"] = f"1736408883{n:06d}.{n % 1000:03d}"
            row["Total Reserved(MB)"] = f"{1452 + n % 4096 / 1024:.10g}"
            out.write(",".join(cell(name, row.get(name)) for name in MEMORY_RECORD_HEADER) + "\r\n")


#: each export: how its file is written and the table its rows go to
EXPORTS = {"kernel_details": (build, "kernel"), "memory_record": (build_memory_record, "memory_record")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=500_000)
    parser.add_argument("--export", choices=EXPORTS, default="kernel_details")
    args = parser.parse_args()
    write, table = EXPORTS[args.export]
    with tempfile.TemporaryDirectory() as tmp:
        csv_path = Path(tmp) / f"{args.export}.csv"
        write(csv_path, args.rows)
        conn = db.connect(Path(tmp) / "warehouse.db")
        started, cpu = time.perf_counter(), time.process_time()
        result = ingest_file(conn, csv_path)
        elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
        assert result.status == "ok", result.error
        print(f"{csv_path.name}: {csv_path.stat().st_size / 1e6:.1f} MB, {result.rows:,} rows, "
              f"ingest {elapsed:.2f} s wall = {result.rows / elapsed:,.0f} rows/s end to end "
              f"({cpu:.2f} s CPU = {result.rows / cpu:,.0f} rows/s per core)")
        if table == "kernel":
            classify(conn, result)
        conn.close()
        floor(Path(tmp), table, result.rows)


def classify(conn, result) -> None:
    """Time classify_source alone on the ingested kernel rows."""
    conn.execute("BEGIN")
    started, cpu = time.perf_counter(), time.process_time()
    classify_source(conn, result.source_id)
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    conn.execute("COMMIT")
    print(f"classify_source alone: {elapsed:.2f} s wall = {result.rows / elapsed:,.0f} rows/s ({cpu:.2f} s CPU)")


def floor(folder: Path, table: str, rows: int) -> None:
    """Time SQLite's INSERT ... SELECT of the ingested rows into a new warehouse's ``table``."""
    copied, cpu, _ = copy_rows(folder / "warehouse.db", folder / "floor.db", [table])
    assert copied == rows, (copied, rows)
    print(f"floor, SQLite INSERT ... SELECT of the same rows: {cpu:.2f} s CPU = {rows / cpu:,.0f} rows/s per core")


if __name__ == "__main__":
    main()
