"""One statement of which kernel classes are compute (issue 33): the op_class view.

The rules count a class as compute by op_class.is_compute, torch_npu's step trace (step_activity,
step_breakdown) by op_class.step_trace_compute: every class but communication. A dsa kernel is
compute to both; a mix_comm_aiv kernel (an MC2 fused operator: communication with AIV time) is
compute to the step trace only.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

import warehouse.model
from factories.warehouse_rows import KernelFactory, StepFactory

CORE_CLASSES = Path(warehouse.model.__file__).parent / "kernel_core_classes.csv"

RULES_COMPUTE = {
    "aic": 1, "aiv": 1, "mix_cv": 1, "aicpu": 1, "dsa": 1, "gpu": 1,
    "mix_comm_aiv": 0, "communication": 0, "memory": 0, "other": 0,
}


def test_op_class_says_which_classes_are_compute(rows):
    flags = {name: (rules, trace) for name, rules, trace in
             rows.execute("SELECT op_class, is_compute, step_trace_compute FROM op_class")}
    assert {name: rules for name, (rules, _) in flags.items()} == RULES_COMPUTE
    assert [name for name, (_, trace) in flags.items() if not trace] == ["communication"]


def test_every_class_the_classification_gives_has_a_row(rows):
    lines = [line for line in CORE_CLASSES.read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    given = {row["op_class"] for row in csv.DictReader(lines)} | {"mix_comm_aiv"}
    listed = {name for (name,) in rows.execute("SELECT op_class FROM op_class")}
    assert given - listed == set()


@pytest.fixture
def mixed_step(rows):
    """Step 1 of rank 0 = [0, 1000): an AI CPU kernel, a DSA kernel and an MC2 fused kernel."""
    StepFactory(rank_id=0, step_id=1, start_ns=0, end_ns=1000)
    KernelFactory(rank_id=0, name="IndexPut", op_class="aicpu", task_type="AI_CPU", ts=0, dur=100)
    KernelFactory(rank_id=0, name="DropOutGenMask", op_class="dsa", task_type="DSA_SQE", ts=200, dur=100)
    KernelFactory(rank_id=0, name="DispatchFFNCombine", op_class="mix_comm_aiv", task_type="COMMUNICATION",
                  ts=400, dur=200)
    return rows


def test_step_kernel_and_step_compute_read_the_rules_flag(mixed_step):
    flags = dict(mixed_step.execute("SELECT op_class, is_compute FROM step_kernel"))
    assert flags == {"aicpu": 1, "dsa": 1, "mix_comm_aiv": 0}
    assert mixed_step.execute("SELECT compute_ns, kernels FROM step_compute").fetchall() == [(200, 2)]


def test_a_rule_counts_dsa_and_not_mix_comm_aiv_as_compute(mixed_step, run):
    (finding,) = run("rule_aicpu_operators", min_share=0.01, high_share=0.05, evidence_limit=1)
    assert finding["subject"] == "IndexPut"
    assert '"share":0.5' in finding["numbers"]  # 100 of the aicpu and dsa kernels' 200


def test_the_step_breakdown_counts_both_as_computing(mixed_step):
    kinds = mixed_step.execute("SELECT kind, unit, lo, hi FROM step_activity ORDER BY lo").fetchall()
    assert kinds == [("compute", "kernel", 0, 100), ("compute", "kernel", 200, 300),
                     ("compute", "kernel", 400, 600)]
    computing, communication = mixed_step.execute(
        "SELECT computing_ns, communication_ns FROM step_breakdown").fetchone()
    assert (computing, communication) == (400, 0)
