"""A one-rank run written as torch_npu's text export (kernel_details.csv and trace_view.json, by the
byte-exact factories of tests/factories), its steps made of given kernels; ingested and analysed.

A step is its wall time and its kernels (name, type, Accelerator Core, duration in us, input shapes
or None for 'N/A', pipeline times); kernels start 100 us into the step, 5 us apart. With markers the
trace holds one ProfilerStep#N per step (the step windows); without, it holds one unrelated CPU op,
so the rank has a timeline but no step, and the analysis cuts the kernels at selection kernels.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tests.factories.text_exports import KernelDetailsFactory, KernelRowFactory
from tests.factories.trace_json import EventFactory, TraceFileFactory
from warehouse import db, queries
from warehouse.cli import cli

T0_US = 1_736_408_883_700_000
HEAD_US = 100
GAP_US = 5
#: the pipeline columns of kernel_details.csv, all zero unless a kernel says otherwise
PIPELINE = ("aic_mac", "aic_scalar", "aic_mte1", "aic_mte2", "aic_fixpipe", "aiv_vec", "aiv_scalar", "aiv_mte2",
            "aiv_mte3")


@dataclass(frozen=True)
class K:
    """One kernel to write: name (also its type), core, duration and shapes, pipeline times in us."""

    name: str
    dur_us: int = 100
    shapes: str | None = "2048,1024;1024,1024"
    core: str = "AI_CORE"
    pipeline: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Step:
    wall_us: int
    kernels: tuple[K, ...]


def norm() -> K:
    return K("RmsNorm", core="AI_VECTOR_CORE")


def matmul(shapes: str = "2048,1024;1024,1024", mac: int = 0) -> K:
    return K("MatMulV2", shapes=shapes, pipeline={"aic_mac": mac})


def layer(attention: tuple[K, ...], shapes: str = "2048,1024;1024,1024", mac: int = 0) -> tuple[K, ...]:
    """A dense transformer layer: pre-norm, qkv matmul, the attention kernels, o matmul, pre-norm, FFN."""
    return (norm(), matmul(shapes, mac), *attention, matmul(shapes, mac), norm(), matmul(shapes, mac),
            K("SwiGlu", core="AI_VECTOR_CORE"), matmul(shapes, mac))


def write_rank(folder, steps: list[Step], *, markers: bool = True, step_ids: bool | None = None,
               rank: int = 0) -> list[dict]:
    """Write the rank's two files under ``folder``; return the kernel records written, in order.
    ``step_ids``: kernel_details.csv's Step Id filled (as ``markers`` when None)."""
    step_ids = markers if step_ids is None else step_ids
    output = folder / f"rank{rank}_ascend_pt" / "ASCEND_PROFILER_OUTPUT"
    records, events, step_start = [], [], T0_US
    for number, step in enumerate(steps, start=1):
        if markers:
            events.append(EventFactory(name=f"ProfilerStep#{number}", cat="cpu_op", ts=f"{step_start}.000",
                                       dur=float(step.wall_us)))
        start = step_start + HEAD_US
        for kernel in step.kernels:
            pipeline = {name: f"{kernel.pipeline.get(name, 0)}.0" for name in PIPELINE}
            records.append(KernelRowFactory(step_id=str(number) if step_ids else "", name=kernel.name,
                                            type=kernel.name, core=kernel.core, start=f"{start}.000",
                                            duration=f"{kernel.dur_us}.000", input_shapes=kernel.shapes,
                                            **pipeline))
            start += kernel.dur_us + GAP_US
        step_start += step.wall_us
    if not markers:
        events.append(EventFactory(name="aten::empty", cat="cpu_op", ts=f"{T0_US}.000", dur=1.0))
    KernelDetailsFactory(path=output / "kernel_details.csv", rows=records)
    TraceFileFactory(path=output / "trace_view.json", events=events)
    return records


def analysed(runner, folder, warehouse_path):
    """Ingest ``folder`` and analyse it with the CLI; a read-only connection to the warehouse."""
    for command in (["ingest", str(folder), "--db", str(warehouse_path), "-q"],
                    ["analyze", "--db", str(warehouse_path)]):
        result = runner.invoke(cli, command)
        assert result.exit_code == 0, result.output
    return db.connect_readonly(warehouse_path)


def query(conn, name: str, **params) -> list[dict]:
    """A named query's rows as dicts."""
    columns, rows = queries.get(name).run(conn, {k: str(v) for k, v in params.items()})
    return [dict(zip(columns, row)) for row in rows]
