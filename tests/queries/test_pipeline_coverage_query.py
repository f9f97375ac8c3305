"""The pipeline_coverage query (queries/kernels/pipeline_coverage.sql) on kernel rows written by factories:
per rank, the share of kernel time whose kernels carry pipeline data and the families' shares."""

from __future__ import annotations

import pytest

from factories.warehouse_rows import KernelFactory, run_id


@pytest.fixture
def kernels(rows):
    """Rank 0: a MatMul with Cube pipeline times (300 ns), an Add with Vector ones (100 ns), a Cast
    without pipeline data (600 ns), an allReduce (no kernel); rank 1: one Cast without pipeline data."""
    KernelFactory(rank_id=0, name="MatMul", op_class="aic", ts=0, dur=300, bound_family="cube", bound_stage="mac",
                  cube_ns=240, aic_mte_ns=30, scalar_ns=10)
    KernelFactory(rank_id=0, name="Add", op_class="aiv", ts=1000, dur=100, bound_family="vector",
                  bound_stage="vec", vector_ns=80, aiv_mte_ns=40)
    KernelFactory(rank_id=0, name="Cast", op_class="aicpu", ts=2000, dur=600)
    KernelFactory(rank_id=0, name="hcom_allReduce", op_class="communication", ts=3000, dur=900)
    KernelFactory(rank_id=1, name="Cast", op_class="aicpu", ts=0, dur=50)
    return run_id("run")


def test_pipeline_coverage_per_rank(run, kernels):
    result = run("pipeline_coverage")
    assert [(r["run_id"], r["rank_id"], r["kernel_count"], r["kernel_ns"], r["covered_count"], r["covered_ns"],
             r["pipeline_ns"]) for r in result] == [(kernels, 0, 3, 1000, 2, 400, 400), (kernels, 1, 1, 50, 0, 0, 0)]
    rank0, rank1 = result
    assert rank0["coverage"] == pytest.approx(0.4)  # 400 of the 1000 ns of kernels
    # pipeline time 240 + 80 + 30 + 40 + 10 = 400 ns
    assert [rank0[f"{f}_share"] for f in ("cube", "vector", "aic_mte", "aiv_mte", "scalar")] == pytest.approx(
        [0.6, 0.2, 0.075, 0.1, 0.025])
    # no pipeline data at all: coverage 0, no family share (never a division by zero)
    assert rank1["coverage"] == 0
    assert [rank1[f"{f}_share"] for f in ("cube", "vector", "aic_mte", "aiv_mte", "scalar")] == [None] * 5
    assert [r["rank_id"] for r in run("pipeline_coverage", rank_id=1)] == [1]
