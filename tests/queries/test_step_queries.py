"""The step queries (queries/steps/*.sql) on steps, kernels and summaries written by factories.

The breakdown follows torch_npu's step trace (README, "Definitions"): the kernels and HCCL
operators that start in a step (host step start up to the next step's), merged per kind;
free = the gaps between the first and the last device activity; preparing = host step start
to the first activity; stage = that span less the receives (bubble).
"""

from __future__ import annotations

import random

import pytest

from factories.warehouse_rows import (
    CommunicationOpFactory,
    KernelFactory,
    SourceFactory,
    StepFactory,
    insert,
    rank_source,
    run_id,
)

BREAKDOWN = ("computing_ns", "communication_not_overlapped_ns", "overlapped_ns", "communication_ns", "free_ns",
             "preparing_ns", "stage_ns", "bubble_ns")


def figures(row: dict) -> tuple:
    return tuple(row[name] for name in BREAKDOWN)


def test_step_time_breakdown_in_the_profilers_terms(run, rows):
    """Step 1 (host 0..1000) of rank 0: compute 100..400 and 300..500 (union 400), communication
    450..700 (an HCCL kernel of the text export) and 650..800 (an HCCL operator of the db export):
    union 350, overlapped 450..500 (50), not overlapped 300; activity spans 100..800: free 0
    (no gap), preparing 100 (0 -> 100), stage 700. Step 2: one kernel 1900..2200 that starts in
    the step counts whole (the profiler does not clip)."""
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
    assert [(r["run_id"], r["step_id"], r["start_ns"], r["end_ns"], r["duration_ns"], r["basis"]) for r in result] == [
        (1, 1, 0, 1000, 800, "derived"), (1, 2, 1000, 2000, 1200, "derived")]
    assert [figures(r) for r in result] == [(400, 300, 50, 350, 0, 100, 700, 0), (300, 0, 0, 0, 0, 900, 300, 0)]


def test_free_is_the_gaps_and_preparing_stays_apart(run, rows):
    """Kernels 200..300 and 500..600, a receive 700..900: free is the gap 300..500 and 600..700
    (300), preparing 200 (host start 0 -> 200), the receive is the bubble (200) and leaves the stage."""
    StepFactory(rank_id=0, step_id=7, start_ns=0, end_ns=1000)
    KernelFactory(rank_id=0, op_class="aic", ts=200, dur=100)
    KernelFactory(rank_id=0, op_class="aiv", ts=500, dur=100)
    CommunicationOpFactory(rank_id=0, ts=700, dur=200, name="hcom_receive__12_0_1")
    (row,) = run("step_time")
    assert figures(row) == (200, 200, 0, 200, 300, 200, 500, 200)
    assert row["duration_ns"] == 900


def test_step_time_of_a_step_without_device_activity_is_unknown(run, rows):
    """No kernel or HCCL operator in the step (a device capture that ended before it): no figure, not zeros."""
    StepFactory(rank_id=3, step_id=1, start_ns=0, end_ns=500)
    (row,) = run("step_time")
    assert figures(row) == (None,) * 8 and row["duration_ns"] is None
    assert (row["rank_id"], row["basis"]) == (3, "derived")


def test_the_profilers_summary_answers_where_it_exists(run, rows):
    """A rank whose analysis.db and step_trace_time.csv both hold step 5 answers once, from analysis.db
    (the documented precedence); the derived breakdown of that step is not listed beside it."""
    StepFactory(rank_id=0, step_id=5, start_ns=0, end_ns=1000)
    KernelFactory(rank_id=0, op_class="aic", ts=100, dur=300)
    for kind, computing in (("analysis_db", 300), ("step_trace_time_csv", 299)):
        source = rank_source(0, kind=kind)
        insert("step_trace_time", {"source_id": source, "rank_id": 0, "step_id": 5, "scope": "rank",
                                   "scope_key": "0", "computing_ns": computing, "communication_ns": 0,
                                   "communication_not_overlapped_ns": 0, "overlapped_ns": 0, "free_ns": 0,
                                   "stage_ns": 300, "bubble_ns": 0, "preparing_ns": 100})
    (row,) = run("step_time")
    assert (row["basis"], row["computing_ns"], row["start_ns"], row["duration_ns"]) == ("analysis_db", 300, 0, 400)
    (summary,) = run("step_trace_summary")
    assert (summary["source_kind"], summary["computing_ns"]) == ("analysis_db", 300)


def test_steps_from_the_summary_alone(run, rows):
    """A text export without step markers: step_trace_time.csv gives the steps (no start or end)."""
    insert("step_trace_time", {"source_id": rank_source(2, kind="step_trace_time_csv"), "rank_id": 2, "step_id": 13,
                               "scope": "rank", "scope_key": "2", "computing_ns": 10, "communication_ns": 5,
                               "communication_not_overlapped_ns": 5, "overlapped_ns": 0, "free_ns": 3,
                               "stage_ns": 18, "bubble_ns": 0})
    (row,) = run("step_time")
    assert (row["rank_id"], row["step_id"], row["start_ns"], row["duration_ns"], row["preparing_ns"], row["basis"]) == (
        2, 13, None, 18, 0, "step_trace_time_csv")
    assert [(r["rank_id"], r["step_id"], r["duration_ns"]) for r in run("slow_ranks")] == [(2, 13, 18)]


def test_two_runs_are_never_added(run, rows):
    """The same rank and step in two runs: two rows, each with its own kernels; run_id filters."""
    StepFactory(rank_id=0, step_id=1, start_ns=0, end_ns=1000)
    KernelFactory(rank_id=0, op_class="aic", ts=100, dur=300)
    other = rank_source(0, run="other")
    StepFactory(rank_id=0, step_id=1, start_ns=0, end_ns=1000, source_id=other)
    KernelFactory(rank_id=0, op_class="aic", ts=100, dur=500, source_id=other)
    result = run("step_time")
    assert [(r["run_id"], r["computing_ns"]) for r in result] == [(1, 300), (run_id("other"), 500)]
    assert [r["computing_ns"] for r in run("step_time", run_id=run_id("other"))] == [500]


def test_slow_ranks(run, rows):
    """Durations are preparing + stage + bubble: one kernel per rank starting at the step start."""
    # step 1: 100, 110, 200 -> median 110, rank 2 flagged; step 2: 100, 100, 120, 400 -> median 110
    for rank, duration in enumerate((100, 110, 200)):
        StepFactory(rank_id=rank, step_id=1, start_ns=0, end_ns=duration)
        KernelFactory(rank_id=rank, ts=0, dur=duration)
    for rank, duration in enumerate((100, 400, 120, 100)):
        StepFactory(rank_id=rank, step_id=2, start_ns=1000, end_ns=1000 + duration)
        KernelFactory(rank_id=rank, ts=1000, dur=duration)
    result = run("slow_ranks")
    assert [(r["step_id"], r["rank_id"], r["duration_ns"], r["median_ns"], r["flagged"]) for r in result] == [
        (1, 0, 100, 110, 0), (1, 1, 110, 110, 0), (1, 2, 200, 110, 1),
        (2, 0, 100, 110, 0), (2, 1, 400, 110, 1), (2, 2, 120, 110, 0), (2, 3, 100, 110, 0),
    ]
    assert result[2]["ratio"] == pytest.approx(200 / 110)
    assert [r["flagged"] for r in run("slow_ranks", threshold=2.0)] == [0, 0, 0, 0, 1, 0, 0]


def test_slow_ranks_medians_are_per_run(run, rows):
    """A slow run beside a fast one: each run's ranks are compared with their own median."""
    for rank, duration in enumerate((100, 100, 100)):
        StepFactory(rank_id=rank, step_id=1, start_ns=0, end_ns=duration)
        KernelFactory(rank_id=rank, ts=0, dur=duration)
    for rank, duration in enumerate((1000, 1000, 1000)):
        source = rank_source(rank, run="slow")
        StepFactory(rank_id=rank, step_id=1, start_ns=0, end_ns=duration, source_id=source)
        KernelFactory(rank_id=rank, ts=0, dur=duration, source_id=source)
    result = run("slow_ranks")
    assert [(r["run_id"], r["median_ns"], r["flagged"]) for r in result] == [
        (1, 100, 0)] * 3 + [(run_id("slow"), 1000, 0)] * 3


def test_step_trace_summary(run, rows):
    source = SourceFactory(kind="cluster_step_trace_time_csv")["id"]
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
    assert [(r["run_id"], r["rank_id"], r["step_total_ns"], r["overlapped_ns"], r["ratio_to_slowest"])
            for r in result] == [(1, 0, 1000, 100, 1.0), (1, 1, 800, 200, 0.8)]


def _merge(intervals):
    merged = []
    for lo, hi in sorted(intervals):
        if merged and lo <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], hi)
        else:
            merged.append([lo, hi])
    return merged


def _length(merged) -> int:
    return sum(hi - lo for lo, hi in merged)


def _profiler_figures(compute, communication, receive_ns, host_start) -> tuple:
    """torch_npu's step trace arithmetic (prof_db_parse/_trace_step_time_db_parser.py), in Python."""
    compute, communication = _merge(compute), _merge(communication)
    both = _merge(compute + communication)
    computing, comm, busy = _length(compute), _length(communication), _length(both)
    span = both[-1][1] - both[0][0] if both else 0
    first = both[0][0] if both else host_start
    return (computing, busy - computing, computing + comm - busy, comm, span - busy, first - host_start,
            span - receive_ns, receive_ns)


def test_step_time_matches_the_profilers_arithmetic(run, rows):
    """200 random kernels and operators over three steps, against the arithmetic done in Python."""
    rng = random.Random(7)
    steps = [(1, 0, 10_000), (2, 10_000, 20_000), (3, 25_000, 30_000)]
    for step_id, start, end in steps:
        StepFactory(rank_id=0, step_id=step_id, start_ns=start, end_ns=end)
    activity = []
    for _ in range(200):
        ts, dur = rng.randrange(-1_000, 31_000), rng.randrange(1, 2_000)
        kind = rng.choice(("compute", "communication", "operator", "receive"))
        if kind in ("operator", "receive"):
            CommunicationOpFactory(rank_id=0, ts=ts, dur=dur, name="hcom_receive_1" if kind == "receive" else "hcom_x")
        else:
            KernelFactory(rank_id=0, ts=ts, dur=dur, op_class="communication" if kind == "communication" else "aiv")
        activity.append((kind, ts, ts + dur))
    result = {r["step_id"]: r for r in run("step_time")}
    bounds = [start for _, start, _ in steps] + [None]
    for (step_id, start, _), following in zip(steps, bounds[1:]):
        mine = [(kind, lo, hi) for kind, lo, hi in activity if lo >= start and (following is None or lo < following)]
        compute = [(lo, hi) for kind, lo, hi in mine if kind == "compute"]
        communication = [(lo, hi) for kind, lo, hi in mine if kind != "compute"]
        receive = sum(hi - lo for kind, lo, hi in mine if kind == "receive")
        assert figures(result[step_id]) == _profiler_figures(compute, communication, receive, start), step_id
