"""The step and cluster queries (queries/steps/*.sql) on steps and kernels written by factories."""

from __future__ import annotations

import random

import pytest

from factories.warehouse_rows import CommunicationOpFactory, KernelFactory, SourceFactory, StepFactory, insert


def test_step_time_breakdown(run, rows):
    """Step 0..1000 of rank 0: compute 100..400 and 300..500 (union 400), communication 450..700
    from a kernel and 650..800 from an HCCL operator (union 350), overlap 450..500 (50), free
    0..100 and 800..1000 (300). A kernel crossing the step's end is clipped."""
    StepFactory(rank_id=0, step_id=1, start_ns=0, end_ns=1000)
    StepFactory(rank_id=0, step_id=2, start_ns=1000, end_ns=2000)
    KernelFactory(rank_id=0, op_class="aic", ts=100, dur=300)
    KernelFactory(rank_id=0, op_class="aiv", ts=300, dur=200)
    KernelFactory(rank_id=0, op_class="communication", ts=450, dur=250)
    CommunicationOpFactory(rank_id=0, ts=650, dur=150)
    KernelFactory(rank_id=0, op_class="aic", ts=1900, dur=300)
    # another rank's kernel in the same span must not count
    KernelFactory(rank_id=1, op_class="aic", ts=0, dur=1000)
    result = run("step_time", rank_id=0)
    assert result == [
        {"rank_id": 0, "step_id": 1, "start_ns": 0, "end_ns": 1000, "duration_ns": 1000, "compute_ns": 400,
         "communication_ns": 350, "overlap_ns": 50, "free_ns": 300},
        {"rank_id": 0, "step_id": 2, "start_ns": 1000, "end_ns": 2000, "duration_ns": 1000, "compute_ns": 100,
         "communication_ns": 0, "overlap_ns": 0, "free_ns": 900},
    ]


def test_step_time_of_an_idle_step(run, rows):
    StepFactory(rank_id=3, step_id=1, start_ns=0, end_ns=500)
    (row,) = run("step_time")
    assert (row["compute_ns"], row["communication_ns"], row["overlap_ns"], row["free_ns"]) == (0, 0, 0, 500)


def test_slow_ranks(run, rows):
    # step 1: 100, 110, 200 -> median 110, rank 2 flagged; step 2: 100, 100, 120, 400 -> median 110
    for rank, duration in enumerate((100, 110, 200)):
        StepFactory(rank_id=rank, step_id=1, start_ns=0, end_ns=duration)
    for rank, duration in enumerate((100, 400, 120, 100)):
        StepFactory(rank_id=rank, step_id=2, start_ns=1000, end_ns=1000 + duration)
    result = run("slow_ranks")
    assert [(r["step_id"], r["rank_id"], r["duration_ns"], r["median_ns"], r["flagged"]) for r in result] == [
        (1, 0, 100, 110, 0), (1, 1, 110, 110, 0), (1, 2, 200, 110, 1),
        (2, 0, 100, 110, 0), (2, 1, 400, 110, 1), (2, 2, 120, 110, 0), (2, 3, 100, 110, 0),
    ]
    assert result[2]["ratio"] == pytest.approx(200 / 110)
    assert [r["flagged"] for r in run("slow_ranks", threshold=2.0)] == [0, 0, 0, 0, 1, 0, 0]


def test_step_trace_summary(run, rows):
    source = SourceFactory()["id"]
    for rank, computing, not_overlapped, free in ((0, 600, 300, 100), (1, 500, 200, 100)):
        insert("step_trace_time", {"source_id": source, "rank_id": rank, "step_id": 2, "scope": "rank",
                                   "scope_key": str(rank), "computing_ns": computing, "communication_ns": 400,
                                   "communication_not_overlapped_ns": not_overlapped,
                                   "overlapped_ns": 400 - not_overlapped, "free_ns": free, "stage_ns": 1000,
                                   "bubble_ns": 0})
    # a stage row of the cluster file is not a rank
    insert("step_trace_time", {"source_id": source, "rank_id": -1, "step_id": 2, "scope": "stage",
                               "scope_key": "(0, 1)", "computing_ns": 9999})
    result = run("step_trace_summary")
    assert [(r["rank_id"], r["step_total_ns"], r["overlapped_ns"], r["ratio_to_slowest"]) for r in result] == [
        (0, 1000, 100, 1.0), (1, 800, 200, 0.8)]


def _union_length(intervals) -> int:
    total, reach = 0, None
    for lo, hi in sorted(intervals):
        if reach is None or lo >= reach:
            total += hi - lo
            reach = hi
        elif hi > reach:
            total += hi - reach
            reach = hi
    return total


def test_step_time_matches_a_plain_interval_union(run, rows):
    """200 random kernels and operators over three steps, against the union computed in Python."""
    rng = random.Random(7)
    steps = [(1, 0, 10_000), (2, 10_000, 20_000), (3, 25_000, 30_000)]
    for step_id, start, end in steps:
        StepFactory(rank_id=0, step_id=step_id, start_ns=start, end_ns=end)
    activity = []
    for _ in range(200):
        ts, dur = rng.randrange(-1_000, 31_000), rng.randrange(0, 2_000)
        kind = rng.choice(("compute", "communication", "operator"))
        if kind == "operator":
            CommunicationOpFactory(rank_id=0, ts=ts, dur=dur)
        else:
            KernelFactory(rank_id=0, ts=ts, dur=dur, op_class="communication" if kind == "communication" else "aiv")
        activity.append(("compute" if kind == "compute" else "communication", ts, ts + dur))
    result = {r["step_id"]: r for r in run("step_time")}
    for step_id, start, end in steps:
        clipped = [(kind, max(lo, start), min(hi, end)) for kind, lo, hi in activity if lo < end and hi > start and hi > lo]
        compute = _union_length([(lo, hi) for kind, lo, hi in clipped if kind == "compute"])
        communication = _union_length([(lo, hi) for kind, lo, hi in clipped if kind == "communication"])
        busy = _union_length([(lo, hi) for _, lo, hi in clipped])
        row = result[step_id]
        assert (row["compute_ns"], row["communication_ns"], row["overlap_ns"], row["free_ns"]) == (
            compute, communication, compute + communication - busy, end - start - busy), step_id
