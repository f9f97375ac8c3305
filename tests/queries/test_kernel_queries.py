"""The kernel queries (queries/kernels/*.sql) on kernel rows written by factories."""

from __future__ import annotations

import pytest

from factories.warehouse_rows import KernelFactory, StepFactory


@pytest.fixture
def kernels(rows):
    """Rank 0: MatMul x2 (100, 300 ns), Add 200 ns, an allReduce 400 ns; rank 1: MatMul 1000 ns."""
    KernelFactory(rank_id=0, name="MatMul", op_class="aic", ts=0, dur=100, bound_family="cube", bound_stage="mac")
    KernelFactory(rank_id=0, name="MatMul", op_class="aic", ts=1000, dur=300, bound_family="cube",
                  bound_stage="mac")
    KernelFactory(rank_id=0, name="Add", op_class="aiv", ts=2000, dur=200, bound_family="aiv_mte",
                  bound_stage="aiv_mte2")
    KernelFactory(rank_id=0, name="hcom_allReduce", op_class="communication", ts=3000, dur=400)
    KernelFactory(rank_id=1, name="MatMul", op_class="aic", ts=0, dur=1000, bound_family="cube",
                  bound_stage="fixpipe")


def test_top_kernels_one_rank(run, kernels):
    result = run("top_kernels", rank_id=0)
    # equal totals are ordered by name (binary collation: upper case first)
    assert [(r["name"], r["op_class"], r["count"], r["total_ns"], r["avg_ns"], r["max_ns"]) for r in result] == [
        ("MatMul", "aic", 2, 400, 200, 300),
        ("hcom_allReduce", "communication", 1, 400, 400, 400),
        ("Add", "aiv", 1, 200, 200, 200),
    ]
    assert [r["ratio"] for r in result] == pytest.approx([0.4, 0.4, 0.2])


def test_top_kernels_all_ranks_and_limit(run, kernels):
    result = run("top_kernels", limit=1)
    assert [(r["name"], r["count"], r["total_ns"], r["avg_ns"]) for r in result] == [("MatMul", 3, 1400, 467)]
    assert result[0]["ratio"] == pytest.approx(1400 / 2000)


def test_kernel_bound_summary(run, kernels):
    result = run("kernel_bound_summary")
    assert [(r["bound_family"], r["bound_stage"], r["count"], r["total_ns"], r["top_kernel"]) for r in result] == [
        ("cube", "fixpipe", 1, 1000, "MatMul"),
        ("cube", "mac", 2, 400, "MatMul"),
        ("unknown", "unknown", 1, 400, "hcom_allReduce"),
        ("aiv_mte", "aiv_mte2", 1, 200, "Add"),
    ]
    assert sum(r["ratio"] for r in result) == pytest.approx(1.0)
    assert [r["total_ns"] for r in run("kernel_bound_summary", rank_id=1)] == [1000]


def test_kernel_by_step_uses_step_id_or_the_step_span(run, kernels):
    StepFactory(rank_id=0, step_id=5, start_ns=0, end_ns=2500)
    StepFactory(rank_id=0, step_id=6, start_ns=2500, end_ns=5000)
    KernelFactory(rank_id=0, step_id=6, name="Cast", op_class="aicpu", ts=9000, dur=50)
    result = run("kernel_by_step", rank_id=0)
    assert [(r["step_id"], r["kernel_count"], r["total_ns"], r["cube_ns"], r["vector_ns"], r["communication_ns"],
             r["aicpu_ns"]) for r in result] == [
        (5, 3, 600, 400, 200, 0, 0),
        (6, 2, 450, 0, 0, 400, 50),
    ]
    # rank 1 has no steps: its kernel is outside every step
    assert [(r["rank_id"], r["step_id"], r["total_ns"]) for r in run("kernel_by_step", rank_id=1)] == [(1, None, 1000)]
