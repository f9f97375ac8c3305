"""A run written row by row with the warehouse_rows factories for the report's step chapters and
its step inspector: two ranks, two steps, two dense layers of eight kernels per step
(cluster.LAYER) spread over three streams.

Kernel i of a step lasts BASE_NS + i us (+ 500 ns on rank 1, + 250 ns in step 2), a wider
spacing after every fourth kernel; each carries pipeline fields (a cube or vector family time,
none for the activation, which has no pipeline data), shapes, a metrics JSON and a global
task id past 2**53 (a JavaScript number could not hold it). After the kernels, an allreduce
(the rank db's COMMUNICATION_OP row) of ALLREDUCE_NS (+ 10 us on rank 1).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from factories import warehouse_rows as rows
from tests.diagnosis import cluster as synth
from warehouse import db
from warehouse.model.classify import load_rules

STREAMS = (3, 5, 9)
STEPS = (1, 2)
STEP_NS = 1_000_000
FIRST_NS = 50_000
BASE_NS = 20_000
BIG_ID = 2**60
ALLREDUCE_NS = 100_000


@dataclass
class Written:
    """Per (rank, step): the kernels as written (dicts with their ids) in start order, and the allreduce."""

    kernels: dict = field(default_factory=dict)
    operators: dict = field(default_factory=dict)


def step_start(step: int) -> int:
    return step * 10 * STEP_NS


def build(path: Path) -> Written:
    """The run ``timeline`` in a new warehouse at ``path``."""
    conn = db.connect(path)
    load_rules(conn)
    written = Written()
    with rows.bound(conn):
        run = rows.run_id("timeline")
        for rank in (0, 1):
            source = rows.SourceFactory(kind="rank_db", rank_id=rank, device_id=rank, run_id=run,
                                        path=f"/timeline/rank{rank}/profiler_{rank}.db")["id"]
            for step in STEPS:
                start = step_start(step)
                rows.StepFactory(rank_id=rank, step_id=step, start_ns=start, end_ns=start + STEP_NS, source_id=source)
                kernels = written.kernels[rank, step] = _kernels(source, rank, step, start)
                written.operators[rank, step] = rows.CommunicationOpFactory(
                    rank_id=rank, device_id=rank, source_id=source, name=f"hcom_allReduce__{step}_0_1",
                    ts=kernels[-1]["ts"] + kernels[-1]["dur"] + 5_000, dur=ALLREDUCE_NS + 10_000 * rank, op_id=step)
    conn.close()
    return written


def _kernels(source: int, rank: int, step: int, start: int) -> list[dict]:
    ts, kernels = start + FIRST_NS, []
    for i, (name, op_type, op_class, category, family) in enumerate(synth.LAYER * 2):
        dur = BASE_NS + 1_000 * i + 500 * rank + 250 * (step - 1)
        if category == "compute.activation":
            family = None
        kernels.append(rows.KernelFactory(
            source_id=source, rank_id=rank, device_id=rank, stream_id=STREAMS[i % 3], name=name, op_type=op_type,
            op_class=op_class, category=category, bound_family=family, bound_stage="mac" if family == "cube" else None,
            ts=ts, dur=dur, task_id=100 + i, global_task_id=BIG_ID + i, input_shapes="2048,1024;1024,1024",
            input_dtypes="FLOAT16", cube_ns=dur // 2 if family == "cube" else None,
            vector_ns=dur // 4 if family in ("vector", "aiv_mte") else None, aic_mac_ratio=0.625,
            metrics='{"l2_hit_rate": 0.5}'))
        ts += dur + (10_000 if i % 4 == 3 else 2_000)
    return kernels


def activities(written: Written, rank: int, step: int) -> list[dict]:
    """The step's kernels and its allreduce, in start order."""
    return written.kernels[rank, step] + [written.operators[rank, step]]


def idle(items: list[dict], start: int) -> list[tuple[int, int]]:
    """Where none of ``items`` (one step's, in start order, none overlapping) runs in [start, start + STEP_NS)."""
    gaps, busy = [], start
    for k in items:
        if k["ts"] > busy:
            gaps.append((busy, k["ts"]))
        busy = max(busy, k["ts"] + k["dur"])
    return gaps + ([(busy, start + STEP_NS)] if busy < start + STEP_NS else [])
