"""The kernel queries (queries/kernels/*.sql) on kernel rows written by factories.

Kernels are read from kernel_answer: per run and rank the answering input's kernels (a rank db
before kernel_details.csv before op_summary), HCCL operators left out of the kernel answers.
"""

from __future__ import annotations

import pytest

from factories.warehouse_rows import CommunicationOpFactory, KernelFactory, StepFactory, rank_source, run_id


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
    return run_id("run")


def test_top_kernels_one_rank(run, kernels):
    result = run("top_kernels", rank_id=0)
    # the HCCL operator is no kernel: the shares are of the compute kernels' 600 ns
    assert [(r["run_id"], r["name"], r["op_class"], r["count"], r["total_ns"], r["avg_ns"], r["max_ns"])
            for r in result] == [
        (kernels, "MatMul", "aic", 2, 400, 200, 300),
        (kernels, "Add", "aiv", 1, 200, 200, 200),
    ]
    assert [r["ratio"] for r in result] == pytest.approx([400 / 600, 200 / 600])


def test_top_kernels_all_ranks_and_limit(run, kernels):
    result = run("top_kernels", limit=1)
    assert [(r["name"], r["count"], r["total_ns"], r["avg_ns"]) for r in result] == [("MatMul", 3, 1400, 467)]
    assert result[0]["ratio"] == pytest.approx(1400 / 1600)


def test_kernel_bound_summary(run, kernels):
    result = run("kernel_bound_summary")
    assert [(r["run_id"], r["bound_family"], r["bound_stage"], r["count"], r["total_ns"], r["top_kernel"])
            for r in result] == [
        (kernels, "cube", "fixpipe", 1, 1000, "MatMul"),
        (kernels, "cube", "mac", 2, 400, "MatMul"),
        (kernels, "aiv_mte", "aiv_mte2", 1, 200, "Add"),
    ]
    assert sum(r["ratio"] for r in result) == pytest.approx(1.0)
    assert [r["total_ns"] for r in run("kernel_bound_summary", rank_id=1)] == [1000]


def test_kernel_by_step_uses_step_id_or_the_step_window(run, kernels):
    StepFactory(rank_id=0, step_id=5, start_ns=0, end_ns=2500)
    StepFactory(rank_id=0, step_id=6, start_ns=2500, end_ns=5000)
    KernelFactory(rank_id=0, step_id=6, name="Cast", op_class="aicpu", ts=9000, dur=50)
    result = run("kernel_by_step", rank_id=0)
    # the HCCL operator (a kernel row of class communication here) counts as communication in step 6
    assert [(r["run_id"], r["step_id"], r["kernel_count"], r["total_ns"], r["cube_ns"], r["vector_ns"],
             r["communication_ns"], r["aicpu_ns"]) for r in result] == [
        (kernels, 5, 3, 600, 400, 200, 0, 0),
        (kernels, 6, 2, 450, 0, 0, 400, 50),
    ]
    # rank 1 has no steps: its one window (step -1) is its whole capture
    assert [(r["rank_id"], r["step_id"], r["total_ns"]) for r in run("kernel_by_step", rank_id=1)] == [(1, -1, 1000)]


def test_kernel_by_step_counts_the_hccl_operators_of_a_rank_db(run, rows):
    StepFactory(rank_id=0, step_id=1, start_ns=0, end_ns=1000)
    KernelFactory(rank_id=0, name="MatMul", op_class="aic", ts=100, dur=300)
    CommunicationOpFactory(rank_id=0, ts=500, dur=200)
    CommunicationOpFactory(rank_id=0, ts=2000, dur=50)  # after the last step's marker: still the last step's
    assert [(r["step_id"], r["kernel_count"], r["total_ns"], r["cube_ns"], r["communication_ns"])
            for r in run("kernel_by_step")] == [(1, 3, 550, 300, 250)]


def test_two_runs_with_the_same_ranks_are_never_added_together(run, kernels):
    other = run_id("other")
    StepFactory(rank_id=0, step_id=5, start_ns=0, end_ns=2500)
    # rank 0 of another run: a kernel inside the first run's step 5, and a run without steps
    KernelFactory(rank_id=0, source_id=rank_source(0, run="other"), name="MatMul", op_class="aic", ts=100,
                  dur=5000, bound_family="cube", bound_stage="mac")
    KernelFactory(rank_id=0, source_id=rank_source(0, run="other"), name="Add", op_class="aiv", ts=6000,
                  dur=1000, bound_family="aiv_mte", bound_stage="aiv_mte2")
    result = run("top_kernels", rank_id=0)
    assert [(r["run_id"], r["name"], r["count"], r["total_ns"]) for r in result] == [
        (kernels, "MatMul", 2, 400), (kernels, "Add", 1, 200), (other, "MatMul", 1, 5000), (other, "Add", 1, 1000)]
    # shares are of each run's own kernel time
    assert [r["ratio"] for r in result] == pytest.approx([400 / 600, 200 / 600, 5000 / 6000, 1000 / 6000])
    # the limit is per run
    assert [(r["run_id"], r["name"]) for r in run("top_kernels", limit=1)] == [
        (kernels, "MatMul"), (other, "MatMul")]
    assert [r["total_ns"] for r in run("top_kernels", run_id=other)] == [5000, 1000]

    bound = run("kernel_bound_summary", rank_id=0)
    assert [(r["run_id"], r["bound_family"], r["bound_stage"], r["total_ns"]) for r in bound] == [
        (kernels, "cube", "mac", 400), (kernels, "aiv_mte", "aiv_mte2", 200),
        (other, "cube", "mac", 5000), (other, "aiv_mte", "aiv_mte2", 1000)]
    assert [r["ratio"] for r in bound] == pytest.approx([400 / 600, 200 / 600, 5000 / 6000, 1000 / 6000])
    assert [r["total_ns"] for r in run("kernel_bound_summary", run_id=other, rank_id=0)] == [5000, 1000]

    # the other run's kernel at 100 ns is not in the first run's step 5: that run has no steps; the
    # first run's kernel after step 5's marker is step 5's (its span runs to the next step's start)
    by_step = run("kernel_by_step", rank_id=0)
    assert [(r["run_id"], r["step_id"], r["kernel_count"], r["total_ns"]) for r in by_step] == [
        (kernels, 5, 4, 1000), (other, -1, 2, 6000)]
    assert [r["run_id"] for r in run("kernel_by_step", run_id=other)] == [other]


def test_a_rank_with_a_rank_db_and_kernel_details_answers_from_the_rank_db(run, rows):
    this = run_id("run")
    # rank 0: the db export (a compute kernel, an HCCL operator in COMMUNICATION_OP) and its text twin
    KernelFactory(rank_id=0, name="MatMul", op_class="aic", ts=0, dur=300, bound_family="cube", bound_stage="mac")
    CommunicationOpFactory(rank_id=0, ts=500, dur=700)
    text = rank_source(0, kind="kernel_details_csv")
    KernelFactory(rank_id=0, source_id=text, name="MatMul", op_class="aic", ts=0, dur=300, bound_family="cube",
                  bound_stage="mac")
    KernelFactory(rank_id=0, source_id=text, name="hcom_allReduce__1_0_1", op_type="hcom_allReduce_",
                  op_class="communication", ts=500, dur=700)
    # rank 1 exported as text only: its kernels answer, its HCCL row is no kernel
    only_text = rank_source(1, kind="kernel_details_csv")
    KernelFactory(rank_id=1, source_id=only_text, name="MatMul", op_class="aic", ts=0, dur=100,
                  bound_family="cube", bound_stage="mac")
    KernelFactory(rank_id=1, source_id=only_text, name="hcom_allReduce__1_0_1", op_type="hcom_allReduce_",
                  op_class="communication", ts=500, dur=700)
    assert [(r["run_id"], r["name"], r["count"], r["total_ns"], r["ratio"]) for r in run("top_kernels")] == [
        (this, "MatMul", 2, 400, 1.0)]
    assert [(r["bound_stage"], r["count"], r["total_ns"]) for r in run("kernel_bound_summary")] == [
        ("mac", 2, 400)]
    # each rank's HCCL operator once: rank 0 from COMMUNICATION_OP, rank 1 from its kernel_details row
    assert [(r["rank_id"], r["step_id"], r["kernel_count"], r["total_ns"], r["cube_ns"], r["communication_ns"])
            for r in run("kernel_by_step")] == [(0, -1, 2, 1000, 300, 700), (1, -1, 2, 800, 100, 700)]
