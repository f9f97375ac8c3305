"""One rule for a kernel's step (issue 33): every per-step answer places a kernel alike.

The profiler's rule (torch_npu's step trace): a step holds what starts from its start to the
next step's start. Step 1 = [0, 1000), step 2 = [2000, 3000); a kernel at 1500, in the gap, is
step 1's; one at 3500, after the last step's marker, is step 2's; one at -500, before the first
step, is in no step. step_activity (what step_time's derived breakdown sums), kernel_by_step,
step_kernel (the per-step rules and the step classes read it) and the report's step inspector
(report/step_kernels.sql) must all say so.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import warehouse.report
from factories.warehouse_rows import KernelFactory, StepFactory
from warehouse import sqlfiles

STEP_KERNELS_SQL = Path(warehouse.report.__file__).parent / "step_kernels.sql"

WHERE = {-500: None, 100: 1, 1500: 1, 2100: 2, 3500: 2}


@pytest.fixture
def gap(rows):
    StepFactory(rank_id=0, step_id=1, start_ns=0, end_ns=1000)
    StepFactory(rank_id=0, step_id=2, start_ns=2000, end_ns=3000)
    for ts in WHERE:
        KernelFactory(rank_id=0, name=f"k{ts}", op_class="aic", ts=ts, dur=10)
    return rows


def test_kernel_step_places_a_kernel_by_the_profilers_rule(gap):
    placed = dict(gap.execute("SELECT ts, step_id FROM kernel_step"))
    assert placed == WHERE


def test_every_per_step_answer_agrees_with_kernel_step(gap, run):
    expected = {step: sorted(ts for ts, s in WHERE.items() if s == step) for step in (1, 2)}
    activity = gap.execute("SELECT step_id, lo FROM step_activity WHERE kind = 'compute' ORDER BY lo").fetchall()
    assert {step: [lo for s, lo in activity if s == step] for step in (1, 2)} == expected
    step_kernel = gap.execute("SELECT step_id, ts FROM step_kernel ORDER BY ts").fetchall()
    assert {step: [ts for s, ts in step_kernel if s == step] for step in (1, 2)} == expected
    by_step = {r["step_id"]: r["kernel_count"] for r in run("kernel_by_step")}
    assert by_step == {None: 1, 1: 2, 2: 2}
    (run_id,) = gap.execute("SELECT run_id FROM run").fetchone()
    inspector = gap.execute(sqlfiles.text(STEP_KERNELS_SQL), {"run_id": run_id})
    columns = [d[0] for d in inspector.description]
    placed = {row[columns.index("ts")]: row[columns.index("step_number")] for row in inspector}
    assert placed == {ts: step for ts, step in WHERE.items() if step is not None}


def test_step_breakdown_counts_the_gap_kernel_in_the_earlier_step(gap):
    computing = dict(gap.execute("SELECT step_id, computing_ns FROM step_breakdown"))
    assert computing == {1: 20, 2: 20}

