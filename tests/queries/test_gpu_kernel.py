"""One definition of a GPU (kineto) trace's kernels (issue 33): the gpu_kernel view.

A trace's slices of category kernel (or Kernel) are GPU kernels, an NCCL one communication, the
others class gpu. Rank 0's trace (no kernel input) has step 1 = [0, 1000): a GEMM at 100, an NCCL
all-reduce at 300 and a Kernel-category copy at 700, beside a host slice that is no kernel.
gpu_kernel lists the three; step_activity counts the NCCL one as communication; compare_kernels
lists the two others as the run's kernels.
"""

from __future__ import annotations

import pytest

from factories.warehouse_rows import SliceFactory, StepFactory, ThreadFactory, rank_source

GEMM = "ampere_sgemm_128x64_nn"
NCCL = "ncclKernel_AllReduce_RING_LL_Sum_float"
COPY = "Memcpy DtoD (Device -> Device)"


@pytest.fixture
def trace(rows):
    source_id = rank_source(0, kind="trace_json")
    StepFactory(rank_id=0, step_id=1, start_ns=0, end_ns=1000, source_id=source_id)
    stream = ThreadFactory(process__source_id=source_id, process__rank_id=0, name="stream 7")
    host = ThreadFactory(process__source_id=source_id, process__rank_id=0, name="python")
    SliceFactory(thread_id=host["id"], ts=50, dur=900, name="aten::mm", category="cpu_op")
    SliceFactory(thread_id=stream["id"], ts=100, dur=100, name=GEMM, category="kernel")
    SliceFactory(thread_id=stream["id"], ts=300, dur=300, name=NCCL, category="kernel")
    SliceFactory(thread_id=stream["id"], ts=700, dur=50, name=COPY, category="Kernel")
    return rows


def test_gpu_kernel_lists_the_kernel_slices_with_nccl_as_communication(trace):
    kernels = trace.execute("SELECT rank_id, name, op_class, ts, dur FROM gpu_kernel ORDER BY ts").fetchall()
    assert kernels == [(0, GEMM, "gpu", 100, 100), (0, NCCL, "communication", 300, 300), (0, COPY, "gpu", 700, 50)]


def test_step_activity_counts_the_nccl_kernel_as_communication(trace):
    activity = trace.execute("SELECT step_id, kind, unit, lo, hi FROM step_activity ORDER BY lo").fetchall()
    assert activity == [(1, "compute", "kernel", 100, 200), (1, "communication", "kernel", 300, 600),
                        (1, "compute", "kernel", 700, 750)]
    computing, communication, overlapped = trace.execute(
        "SELECT computing_ns, communication_ns, overlapped_ns FROM step_breakdown").fetchone()
    assert (computing, communication, overlapped) == (150, 300, 0)


def test_compare_kernels_leaves_the_nccl_kernel_out(trace, run):
    (run_id,) = trace.execute("SELECT run_id FROM run").fetchone()
    listed = {r["name"]: r["run_count"] for r in run("compare_kernels", run_id=run_id, base_run_id=run_id)}
    assert listed == {GEMM: 1, COPY: 1}
