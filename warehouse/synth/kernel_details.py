"""Write a realistic 46-column ``kernel_details.csv`` (torch_npu's text export) for a rank.

The file is written as torch_npu writes it (reference/FORMATS.md): CRLF lines, start times
in epoch microseconds with three decimals followed by a TAB, shapes triple-quoted, ``N/A``
where a metric does not apply. :func:`write_kernel_details` cycles through a small
transformer-like sequence (``slowdown`` stretches every duration: a slow rank);
:func:`write_planned_kernel_details` writes a rank of a planned cluster (``plan.py``), on the
clock of the cluster's other ranks.
"""

from __future__ import annotations

import csv
import random
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import NamedTuple

from warehouse.synth.plan import OPS, Step, Unit

KERNEL_HEADER_46 = (
    "Step Id", "Model ID", "Task ID", "Stream ID", "Name", "Type", "OP State", "Accelerator Core",
    "Start Time(us)", "Duration(us)", "Wait Time(us)", "Block Dim", "Mix Block Dim", "HF32 Eligible",
    "Input Shapes", "Input Data Types", "Input Formats", "Output Shapes", "Output Data Types", "Output Formats",
    "Context ID", "aicore_time(us)", "aic_total_cycles", "aic_mac_time(us)", "aic_mac_ratio",
    "aic_scalar_time(us)", "aic_scalar_ratio", "aic_mte1_time(us)", "aic_mte1_ratio", "aic_mte2_time(us)",
    "aic_mte2_ratio", "aic_fixpipe_time(us)", "aic_fixpipe_ratio", "aic_icache_miss_rate", "aiv_time(us)",
    "aiv_total_cycles", "aiv_vec_time(us)", "aiv_vec_ratio", "aiv_scalar_time(us)", "aiv_scalar_ratio",
    "aiv_mte2_time(us)", "aiv_mte2_ratio", "aiv_mte3_time(us)", "aiv_mte3_ratio", "aiv_icache_miss_rate",
    "cube_utilization(%)",
)
#: (name, type, accelerator core, mean duration in us): one transformer layer's kernels
SEQUENCE = (
    ("RmsNorm_0", "RmsNorm", "AI_VECTOR_CORE", 12.0),
    ("MatMulV2_1", "MatMulV2", "AI_CORE", 85.0),
    ("FlashAttentionScore_2", "FlashAttentionScore", "MIX_AIC", 240.0),
    ("MatMulV2_3", "MatMulV2", "AI_CORE", 60.0),
    ("Add_4", "Add", "AI_VECTOR_CORE", 6.0),
    ("hcom_allReduce__5", "hcom_allReduce_", "HCCL", 150.0),
    ("Swish_6", "Swish", "AI_VECTOR_CORE", 9.0),
    ("Cast_7", "Cast", "AI_VECTOR_CORE", 4.0),
)
START_US = 1_736_408_883_000_000


class Kernel(NamedTuple):
    """One row's timing and identity: the columns that differ from kernel to kernel."""

    step_id: int
    name: str
    op_type: str
    core: str
    start_ns: int
    dur_ns: int


def write_kernel_details(path: str | Path, kernels: int, *, seed: int = 0, slowdown: float = 1.0) -> int:
    """Write ``kernels`` rows of SEQUENCE in turn to ``path``, back to back; returns the number written."""
    rng = random.Random(seed)

    def rows() -> Iterator[Kernel]:
        clock_ns = START_US * 1000
        for index in range(kernels):
            name, op_type, core, mean_us = SEQUENCE[index % len(SEQUENCE)]
            dur_ns = int(mean_us * slowdown * rng.uniform(0.8, 1.2) * 1000)
            yield Kernel(index // len(SEQUENCE) // 4 + 1, name, op_type, core, clock_ns, dur_ns)
            clock_ns += dur_ns + rng.randint(1_000, 5_000)

    return write_kernel_rows(path, rows())


def write_planned_kernel_details(path: str | Path, steps: list[Step], units: list[Unit]) -> int:
    """Write the kernels of a rank that follows a plan (warehouse.synth.plan): each unit's kernel
    and each step's allReduce (an HCCL row) at their planned times; returns the number written."""
    collectives = [Kernel(step.step_id, step.collective_name, "hcom_allReduce_", "HCCL", step.collective_start_ns,
                          step.collective_end_ns - step.collective_start_ns) for step in steps]
    kernels = [Kernel(unit.step_id, unit.kernel_name, OPS[unit.op][1], "AI_VECTOR_CORE" if unit.vector else "AI_CORE",
                      unit.kernel_start_ns, unit.kernel_ns) for unit in units]
    return write_kernel_rows(path, sorted(kernels + collectives, key=lambda kernel: kernel.start_ns))


def write_kernel_rows(path: str | Path, kernels: Iterable[Kernel]) -> int:
    """Write the header and one row per kernel, in the given order, to ``path``; returns the number written."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    count = 0
    with path.open("w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out, lineterminator="\r\n")
        writer.writerow(KERNEL_HEADER_46)
        for count, kernel in enumerate(kernels, 1):
            writer.writerow(_row(count - 1, kernel))
    return count


def _us(ns: int) -> str:
    return f"{ns // 1000}.{ns % 1000:03d}"


def _row(index: int, kernel: Kernel) -> list[str]:
    step_id, name, op_type, core, start_ns, dur_ns = kernel
    cube = core in ("AI_CORE", "MIX_AIC")
    vector = core in ("AI_VECTOR_CORE", "MIX_AIC")
    aic = [_us(dur_ns), str(dur_ns * 18 // 10), _us(dur_ns * 6 // 10), "0.6", _us(dur_ns // 20), "0.05",
           _us(dur_ns // 10), "0.1", _us(dur_ns // 5), "0.2", _us(dur_ns // 20), "0.05", "0.01"]
    aiv = [_us(dur_ns), str(dur_ns * 18 // 10), _us(dur_ns // 2), "0.5", _us(dur_ns // 10), "0.1",
           _us(dur_ns * 3 // 10), "0.3", _us(dur_ns // 10), "0.1", "0.02"]
    return [
        str(step_id), "4294967295", str(10_000 + index), "2", name, op_type, "dynamic", core,
        _us(start_ns) + "\t", _us(dur_ns), "0.500", "20" if cube or vector else "0", "40" if core == "MIX_AIC" else "0",
        "NO", '"8,1024;1024,1024"', "FLOAT16;FLOAT16", "ND;ND", '"8,1024"', "FLOAT16", "ND", "N/A",
        *(aic if cube else ["N/A"] * len(aic)),
        *(aiv if vector else ["N/A"] * len(aiv)),
        "60.0" if cube else "N/A",
    ]
