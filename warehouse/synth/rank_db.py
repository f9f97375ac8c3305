"""Generate a cluster run of realistic ``ascend_pytorch_profiler_{rank}.db`` files, any size.

Layout as torch_npu writes it::

    OUT/rank{N}_ascend_pt/profiler_info_{N}.json
    OUT/rank{N}_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_{N}.db
    OUT/rank{N}_ascend_pt/ASCEND_PROFILER_OUTPUT/analysis.db   (gen_analysis_db.sql: step and
        communication summaries derived from the rank db, as torch_npu writes them)

Each db has the tables and declared types of a real level-1 file (TEXT PYTORCH_API
timestamps, STRING_IDS with CANN ids from 0 and framework ids from 1 << 28, ENUM tables,
TASK_PMU_INFO in long format, the real indexes); the rows are written by ``rank_db.sql``
from the rank's plan (``plan.py``: one "unit" = one operator: 4 PYTORCH_API rows, 2 CANN
calls, 1 kernel with 10 PMU metrics, ...; one allReduce per step). Rank 3 runs its kernels
1.5x longer and the others wait for it; rank 1 is host-bound once; rank 2 reserves 61.5 GiB
of device memory (MEMORY_RANK), near a 910B's 64 GiB.

Usage::

    .venv/bin/python bench/gen_rank_db.py OUT --ranks 64 --api-rows 40000
    .venv/bin/python bench/gen_rank_db.py OUT --ranks 1 --api-rows 1000000
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from warehouse import sqlfiles
from warehouse.synth.plan import OPS, UNITS_PER_STEP, rank_plan

SQL = sqlfiles.text(Path(__file__).with_suffix(".sql"))
ANALYSIS_SQL = sqlfiles.text(Path(__file__).parent / "analysis_db.sql")
FRAMEWORK_BASE = 1 << 28
MEMORY_BASE = 2 << 28
GIB = 1 << 30
MEMORY_RANK = 2
#: the TASK_PMU_INFO metrics, in the order gen_rank_db.sql computes them
PMU = ["aic_total_time", "aic_mac_time", "aic_mac_ratio", "aic_mte2_time", "aic_scalar_time", "aiv_total_time",
       "aiv_vec_time", "aiv_vec_ratio", "aiv_mte2_time", "aiv_mte3_time"]


def memory(rank: int) -> tuple[int, int, int]:
    """The rank's device memory in bytes: allocated at a step's start, at its end, and reserved.

    Each rank holds a little more than the one before; MEMORY_RANK holds 40 GiB of weights and
    optimizer state and reserves 61.5 GiB, 96 % of a 910B's 64 GiB (the next larger batch
    does not fit).
    """
    if rank == MEMORY_RANK:
        return 40 * GIB, 58 * GIB, 61 * GIB + GIB // 2
    base = 16 * GIB + (rank % 8) * GIB // 2
    return base, base + 6 * GIB, base + 8 * GIB


def vocabulary() -> tuple[dict[str, int], list[tuple[int, str]]]:
    """The string ids the SQL refers to (p columns) and every STRING_IDS row."""
    ids: dict[str, int] = {}
    rows: list[tuple[int, str]] = []
    next_id = {0: 0, FRAMEWORK_BASE: FRAMEWORK_BASE, MEMORY_BASE: MEMORY_BASE}

    def add(key: str | None, values: list[str], base: int = 0) -> None:
        if key:
            ids[key] = next_id[base]
        for value in values:
            rows.append((next_id[base], value))
            next_id[base] += 1

    add("kernel0", [f"{op_type}_{k}" for k, (_, op_type) in enumerate(OPS)])
    add("optype0", [op_type for _, op_type in OPS])
    add("acl0", [f"aclnn{op_type}" for _, op_type in OPS])
    for key, value in (("launch", "launch"), ("kernel_aicore", "KERNEL_AICORE"), ("kernel_aivec", "KERNEL_AIVEC"),
                       ("ai_core", "AI_CORE"), ("ai_vector_core", "AI_VECTOR_CORE"), ("formats", "ND;ND"),
                       ("fmt_nd", "ND"), ("dtype1", "FLOAT16"), ("shape1", '"8,1024"'), ("na", "N/A"),
                       ("notify_wait", "Notify Wait"), ("memcpy", "MEMCPY_ASYNC"),
                       ("hcom_name", "hcom_allReduce__1"), ("hcom_type", "hcom_allReduce_"),
                       ("grp", "10.0.0.1%eth0_60000_0_1736410538306028"), ("ring", "MESH-RING"), ("app", "app"),
                       ("rd", "read"), ("wr", "write"), ("ge", "GE"), ("allocate", "allocate")):
        add(key, [value])
    add("pmu0", PMU)
    add("op0", [op for op, _ in OPS], FRAMEWORK_BASE)
    add("frame0", [f"model.py({10 + k}): {op.split('::')[-1]}" for k, (op, _) in enumerate(OPS)], FRAMEWORK_BASE)
    add("frame_main", ["train.py(42): train_step"], FRAMEWORK_BASE)
    add("enqueue", ["Enqueue"], FRAMEWORK_BASE)
    add("dequeue0", [f"Dequeue@{op}" for op, _ in OPS], FRAMEWORK_BASE)
    add("dtypes", ["float16;float16"], FRAMEWORK_BASE)
    add("shapes", ['"8,1024;1024,1024"'], FRAMEWORK_BASE)
    add("pta", ["PTA"], MEMORY_BASE)
    return ids, rows


def write_rank(out: Path, rank: int, units: int) -> Path:
    """Write rank ``rank``'s folder; return the db's path."""
    folder = out / f"rank{rank}_ascend_pt"
    db_path = folder / "ASCEND_PROFILER_OUTPUT" / f"ascend_pytorch_profiler_{rank}.db"
    db_path.parent.mkdir(parents=True, exist_ok=True)
    db_path.unlink(missing_ok=True)
    (folder / f"profiler_info_{rank}.json").write_text(json.dumps({
        "config": {"common_config": {"activities": ["ProfilerActivity.CPU", "ProfilerActivity.NPU"]},
                   "experimental_config": {"_profiler_level": "Level1", "_export_type": ["db"]}},
        "start_info": {"syscnt_enable": False}, "end_info": {}, "torch_npu_version": "2.1.0",
        "rank_id": rank,
    }))
    ids, strings = vocabulary()
    steps, units_plan = rank_plan(rank, units)
    pid = 3_000_000 + rank
    alloc_lo, alloc_hi, reserved = memory(rank)
    params = {
        "n": units, "rank": rank, "device": rank % 8, "host": f"node{rank // 8}", "pid": pid,
        "main_gtid": (pid << 32) | pid, "worker_gtid": (pid << 32) | (pid + 3), "conn0": 10_000,
        "hcom_name0": 100_000, "units_per_step": UNITS_PER_STEP, "alloc_lo": alloc_lo, "alloc_hi": alloc_hi,
        "reserved": reserved, **ids,
    }
    conn = sqlite3.connect(db_path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = OFF")
    conn.execute("PRAGMA synchronous = OFF")
    columns = ", ".join(f":{name} AS {name}" for name in params)
    conn.execute(f"CREATE TEMP TABLE p AS SELECT {columns}", params)
    conn.execute("CREATE TEMP TABLE vocab (id INTEGER PRIMARY KEY, value TEXT)")
    conn.executemany("INSERT INTO vocab VALUES (?, ?)", strings)
    conn.execute("CREATE TEMP TABLE unit (i INTEGER PRIMARY KEY, step_id, pos, s, ks, op, vector, kernel_ns)")
    conn.executemany("INSERT INTO unit VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                     ((u.index, u.step_id, u.position, u.start_ns, u.kernel_start_ns, u.op, int(u.vector),
                       u.kernel_ns) for u in units_plan))
    conn.execute("CREATE TEMP TABLE plan_step (id, k, start_ns, end_ns, comm_start, wait_end, comm_end, name)")
    conn.executemany("INSERT INTO plan_step VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                     ((st.step_id, k, st.start_ns, st.end_ns, st.collective_start_ns, st.wait_end_ns,
                       st.collective_end_ns, st.collective_name) for k, st in enumerate(steps)))
    conn.executescript("BEGIN;" + SQL + "COMMIT;")
    conn.close()
    analysis = db_path.with_name("analysis.db")
    analysis.unlink(missing_ok=True)
    conn = sqlite3.connect(analysis, isolation_level=None)
    conn.execute("ATTACH DATABASE ? AS r", (str(db_path),))
    conn.executescript("BEGIN;" + ANALYSIS_SQL + "COMMIT;")
    conn.close()
    return db_path


def generate(out: Path, ranks: int, api_rows: int, workers: int = 2) -> list[Path]:
    """Write ``ranks`` rank folders with about ``api_rows`` PYTORCH_API rows each (4 per unit)."""
    units = max(1, api_rows // 4)
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(write_rank, [out] * ranks, range(ranks), [units] * ranks))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--ranks", type=int, default=64)
    parser.add_argument("--api-rows", type=int, default=40_000, help="PYTORCH_API rows per rank")
    args = parser.parse_args()
    started = time.perf_counter()
    paths = generate(args.out, args.ranks, args.api_rows)
    size = sum(p.stat().st_size for p in paths)
    print(f"{len(paths)} rank dbs, {size / 1e6:.1f} MB, in {time.perf_counter() - started:.1f} s under {args.out}")


if __name__ == "__main__":
    main()
