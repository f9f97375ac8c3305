"""The compare and trend queries (queries/compare/*.sql, issue 17) on two runs built with the factories.

The two runs are alike, 2 ranks each, but for three planted differences: MatMul is 2x slower,
Gelu is new, and rank 1's allReduce waits three times as long. Each compare query names them
first with exact numbers, and nothing else is reported as changed. Then how ranks pair (issue 35):
two runs of one cluster shape that number their ranks otherwise pair by place, a planted slower
place on its pair; the same runs stating no shape by rank id; two one-rank runs whatever their ids.
"""

from __future__ import annotations

import json

import pytest

from factories.warehouse_rows import (
    CommunicationOpFactory, KernelFactory, MemoryRecordFactory, StepFactory, insert, rank_source, run_id,
)
from tests.diagnosis import cluster as synth
from warehouse import queries
from warehouse.analysis import findings

STEP_NS = 10_000


def build_run(name: str, start_ns: int, step_ids, *, matmul_ns: int, gelu: bool, wait_rank1: int,
              duration_scale: int = 1):
    """A run of 2 ranks: per step MatMul (matmul_ns), Add (500 ns), optionally Gelu (300 ns), one allReduce
    (400 ns); a communication summary per rank and step; a memory peak per rank."""
    rid = run_id(name)
    for rank in (0, 1):
        source = rank_source(rank, run=name)
        for index, step in enumerate(step_ids):
            t0 = start_ns + index * STEP_NS * duration_scale
            StepFactory(rank_id=rank, step_id=step, start_ns=t0, end_ns=t0 + STEP_NS * duration_scale,
                        source_id=source)
            KernelFactory(rank_id=rank, source_id=source, name="MatMul", op_type="MatMul", input_shapes="8,8",
                          ts=t0 + 100, dur=matmul_ns)
            KernelFactory(rank_id=rank, source_id=source, name="Add", op_type="Add", input_shapes="8",
                          ts=t0 + 100 + matmul_ns, dur=500, op_class="aiv")
            end = t0 + 100 + matmul_ns + 500
            if gelu:
                KernelFactory(rank_id=rank, source_id=source, name="Gelu", op_type="Gelu", input_shapes="8",
                              ts=end, dur=300, op_class="aiv")
                end += 300
            CommunicationOpFactory(rank_id=rank, source_id=source, name=f"hcom_allReduce__{step}_0_1",
                                   op_type="hcom_allReduce_", group_name="group_a", ts=end, dur=400)
            wait = wait_rank1 if rank == 1 else 100
            insert("communication_time", {
                "source_id": rank_source(rank, run=name, kind="communication_json"), "rank_id": rank,
                "step_id": step, "op_name": f"hcom_allReduce__{step}_0_1", "group_name": "group_a",
                "elapse_ns": 400 + wait, "transit_ns": 300, "wait_ns": wait, "synchronization_ns": 0, "idle_ns": 0})
        for ts, allocated in ((start_ns, 1000), (start_ns + 1, 2000)):
            MemoryRecordFactory(rank_id=rank, source_id=source, component="PTA", ts=ts,
                                total_allocated_bytes=allocated, total_reserved_bytes=4096)
    return rid


@pytest.fixture
def two_runs(rows):
    """base: steps 1-2, MatMul 1000 ns; run: steps 7-9 (other ids, more steps), MatMul 2000 ns, Gelu new,
    rank 1's wait 300 ns instead of 100."""
    base = build_run("base", 1_000_000, (1, 2), matmul_ns=1000, gelu=False, wait_rank1=100)
    run = build_run("after", 2_000_000, (7, 8, 9), matmul_ns=2000, gelu=True, wait_rank1=300)
    rows.execute("UPDATE run SET start_ns = 1000000 WHERE run_id = ?", (base,))
    rows.execute("UPDATE run SET start_ns = 2000000 WHERE run_id = ?", (run,))
    return base, run


def test_compare_kernels_names_the_slower_and_the_new_kernel_first(run, two_runs):
    base, after = two_runs
    result = run("compare_kernels", base_run_id=base, run_id=after)
    assert [(r["name"], r["matched_by"], r["base_count"], r["base_total_ns"], r["run_count"], r["run_total_ns"],
             r["difference_ns"], r["ratio"]) for r in result] == [
        # 2 ranks x 3 steps x 2000 ns against 2 ranks x 2 steps x 1000 ns
        ("MatMul", "name, op_type, input_shapes", 4, 4000, 6, 12000, 8000, 2.0),
        ("Gelu", "run only", 0, 0, 6, 1800, 1800, None),
        # the same per execution: only more steps
        ("Add", "name, op_type, input_shapes", 4, 2000, 6, 3000, 1000, 1.0),
    ]
    assert result[0]["base_mean_ns"] == 1000 and result[0]["run_mean_ns"] == 2000
    assert {(r["run_id"], r["base_run_id"]) for r in result} == {(after, base)}
    # the defaults: the run that started last against the one before it
    assert run("compare_kernels") == result


def test_compare_kernels_falls_back_to_the_name(run, rows, two_runs):
    base, after = two_runs
    KernelFactory(rank_id=0, source_id=rank_source(0, run="base"), name="Cast", op_type="Cast", input_shapes="4",
                  dur=50)
    KernelFactory(rank_id=0, source_id=rank_source(0, run="after"), name="Cast", op_type="Cast", input_shapes="16",
                  dur=150)
    KernelFactory(rank_id=0, source_id=rank_source(0, run="base"), name="Gone", dur=70)
    cast, = [r for r in run("compare_kernels", base_run_id=base, run_id=after) if r["name"] == "Cast"]
    assert (cast["matched_by"], cast["input_shapes"], cast["difference_ns"], cast["ratio"]) == ("name", "16", 100, 3.0)
    last = run("compare_kernels", base_run_id=base, run_id=after)[-1]
    assert (last["name"], last["matched_by"], last["difference_ns"]) == ("Gone", "base only", -70)


def test_compare_step_time_averages_steps_per_rank(run, two_runs):
    base, after = two_runs
    result = run("compare_step_time", base_run_id=base, run_id=after)
    assert len(result) == 3 * 9  # overall, rank 0, rank 1 x 9 components
    changed = [(r["scope"], r["rank_id"], r["component"], r["base_ns"], r["run_ns"], r["difference_ns"])
               for r in result if r["difference_ns"]]
    # MatMul +1000 ns and Gelu +300 ns per step: computing, stage and duration, on both ranks alike
    assert changed == [
        ("overall", None, "computing", 1500.0, 2800.0, 1300.0),
        ("overall", None, "stage", 1900.0, 3200.0, 1300.0),
        ("overall", None, "duration", 2000.0, 3300.0, 1300.0),
        ("rank", 0, "computing", 1500.0, 2800.0, 1300.0),
        ("rank", 0, "stage", 1900.0, 3200.0, 1300.0),
        ("rank", 0, "duration", 2000.0, 3300.0, 1300.0),
        ("rank", 1, "computing", 1500.0, 2800.0, 1300.0),
        ("rank", 1, "stage", 1900.0, 3200.0, 1300.0),
        ("rank", 1, "duration", 2000.0, 3300.0, 1300.0),
    ]
    top = result[0]
    assert (top["base_steps"], top["run_steps"], top["ratio"]) == (4, 6, pytest.approx(2800 / 1500))


def test_compare_communication_names_the_tripled_wait_first(run, two_runs):
    base, after = two_runs
    result = run("compare_communication", base_run_id=base, run_id=after)
    changed = [(r["scope"], r["rank_id"], r["metric"], r["base_value"], r["run_value"], r["ratio"])
               for r in result if r["base_value"] != r["run_value"]]
    assert changed == [
        ("rank", 1, "mean_wait_ns", 100.0, 300.0, 3.0),
        ("overall", None, "mean_wait_ns", 100.0, 200.0, 2.0),
        # 2 x 3 operators against 2 x 2: more steps, the same time per operator
        ("overall", None, "count", 4.0, 6.0, 1.5),
        ("rank", 0, "count", 2.0, 3.0, 1.5),
        ("rank", 1, "count", 2.0, 3.0, 1.5),
        # the elapsed time holds the wait
        ("rank", 1, "mean_elapse_ns", 500.0, 700.0, 1.4),
        ("overall", None, "mean_elapse_ns", 500.0, 600.0, 1.2),
    ]
    # the group is matched by its ranks; each run's name of it is kept
    assert [result[0][key] for key in ("op_type", "group_ranks", "base_group_name", "run_group_name")] == [
        "hcom_allReduce_", "0,1", "group_a", "group_a"]


def test_compare_memory_per_rank_and_component(run, rows, two_runs):
    base, after = two_runs
    MemoryRecordFactory(rank_id=1, source_id=rank_source(1, run="after"), component="PTA", ts=5,
                        total_allocated_bytes=6000, total_reserved_bytes=8192)
    result = run("compare_memory", base_run_id=base, run_id=after)
    changed = [(r["scope"], r["rank_id"], r["metric"], r["base_bytes"], r["run_bytes"], r["difference_bytes"])
               for r in result if r["difference_bytes"]]
    assert changed == [
        ("overall", None, "peak_reserved_bytes", 4096, 8192, 4096),
        ("rank", 1, "peak_reserved_bytes", 4096, 8192, 4096),
        ("overall", None, "peak_allocated_bytes", 2000, 6000, 4000),
        ("rank", 1, "peak_allocated_bytes", 2000, 6000, 4000),
    ]
    assert len(result) == 6  # overall, rank 0, rank 1 x 2 metrics of PTA


def test_trends_are_ordered_by_start(run, rows, two_runs):
    base, after = two_runs
    third = build_run("third", 500_000, (1,), matmul_ns=1000, gelu=False, wait_rank1=100)
    rows.execute("UPDATE run SET start_ns = 500000 WHERE run_id = ?", (third,))
    overall = [(r["run_id"], r["position"], r["duration_ns"]) for r in run("trend_step_time") if r["scope"] == "overall"]
    assert overall == [(third, 1, 2000.0), (base, 2, 2000.0), (after, 3, 3300.0)]
    columns, kernels = queries.get("trend_kernel").run(rows, {"name": "MatMul"})  # (run() takes name itself)
    assert [(r["run_id"], r["count"], r["mean_ns"]) for r in (dict(zip(columns, k)) for k in kernels)] == [
        (third, 2, 1000.0), (base, 4, 1000.0), (after, 6, 2000.0)]
    # without a name: the kernels with the most time over every run, in each run
    assert [(r["run_id"], r["name"]) for r in run("trend_kernel", limit=1)] == [
        (third, "MatMul"), (base, "MatMul"), (after, "MatMul")]
    assert [(r["run_id"], r["count"], r["mean_wait_ns"]) for r in run("trend_communication")] == [
        (third, 2, 100.0), (base, 4, 100.0), (after, 6, 200.0)]


def test_run_regression_fires_only_on_the_regressing_run(rows, two_runs):
    base, after = two_runs
    third = build_run("later", 3_000_000, (1, 2), matmul_ns=2000, gelu=True, wait_rank1=300)
    rows.execute("UPDATE run SET start_ns = 3000000 WHERE run_id = ?", (third,))
    found = findings.evaluate(rows, "run_regression")
    assert [(f.values["run_id"], f.values["severity"], f.values["confidence"]) for f in found] == [
        (after, "high", "high")]
    numbers = json.loads(found[0].values["numbers"])
    # the baseline is the last comparable run before it: the same device kind, cluster size and kernels
    assert numbers == {"mean_step_ns": 3300.0, "previous_run_id": base, "previous_mean_step_ns": 2000.0,
                       "ratio": 1.65, "comparable": "comparable: the same NPU, 2 ranks, 67 % of kernel names shared",
                       "name_overlap": 0.6667, "type_overlap": 0.6667}
    assert len(found[0].evidence) == 3 and {e[1] for e in found[0].evidence} == {"step"}
    assert findings.evaluate(rows, "run_regression", {"threshold": 2}) == []


def test_run_labels(run, rows, two_runs):
    from warehouse.labels import labels_of, set_labels

    base, after = two_runs
    set_labels(rows, after, ["commit=abc", "batch=32"])
    set_labels(rows, after, {"batch": "64"})
    set_labels(rows, base, ["note=a=b"])
    assert labels_of(rows, after) == {"batch": "64", "commit": "abc"}
    assert [(r["run_id"], r["key"], r["value"]) for r in run("run_labels")] == [
        (base, "note", "a=b"), (after, "batch", "64"), (after, "commit", "abc")]
    run_id("unlabelled")
    assert [(r["name"], r["key"]) for r in run("run_labels")][0] == ("unlabelled", None)  # start unknown: first


# -- ranks paired by their place in the cluster ------------------------------------------------

#: one PP 2 x DP 2 shape, numbered two ways: the baseline as Megatron does (a data-parallel group per
#: stage: ranks 0 and 1 in stage 0), the run the other way round (ranks 0 and 1 are a pipeline), so
#: the run's rank 1 sits where the baseline has rank 2 (stage 1, data-parallel index 0) and its rank 2
#: where the baseline has rank 1
BASE_GROUPS = {"dp": [[0, 1], [2, 3]], "pp": [[0, 2], [1, 3]]}
RUN_GROUPS = {"dp": [[0, 2], [1, 3]], "pp": [[0, 1], [2, 3]]}
#: stage 1 runs more layers in both runs; the place (stage 1, data-parallel index 0) is slower still in the run
STAGE = 1.25
SLOWER = 1.5


def renumbered_runs(conn, *, placed: bool = True):
    """The two runs of one shape numbered otherwise (:data:`BASE_GROUPS`, :data:`RUN_GROUPS`), each
    data-parallel group reducing in its own group, the run's place (stage 1, data-parallel index 0)
    :data:`SLOWER` and its stage-0 data-parallel index 1 holding the 60 GiB memory peak, the
    baseline's peak at that place too; ``placed=False``: neither run states its groups."""
    base = synth.build(conn, ranks=4, steps=(1, 2), run="base", collective_groups=BASE_GROUPS["dp"],
                       compute_scale={2: STAGE, 3: STAGE}, memory_rank=1)
    after = synth.build(conn, ranks=4, steps=(1, 2), run="after", collective_groups=RUN_GROUPS["dp"],
                        compute_scale={1: STAGE * SLOWER, 3: STAGE}, memory_rank=2)
    if placed:
        synth.place(conn, base, BASE_GROUPS)
        synth.place(conn, after, RUN_GROUPS)
    conn.execute("UPDATE run SET start_ns = run_id")
    return base.run_id, after.run_id


def rank_rows(result: list[dict], **where) -> list[dict]:
    return [r for r in result if r["scope"] == "rank" and all(r[k] == v for k, v in where.items())]


def test_ranks_of_one_shape_numbered_otherwise_pair_by_place(run, rows):
    base, after = renumbered_runs(rows)
    pairing, = [r for r in run("compare_runs", base_run_id=base, run_id=after) if r["property"] == "rank_pairing"]
    assert (pairing["run_value"], pairing["differs"], pairing["note"]) == (
        "place", 1, "ranks paired by place in the cluster (pipeline stage, data- and tensor-parallel index), as both "
                    "runs state their shape; paired ranks of other ids: baseline rank 1 = run rank 2, "
                    "baseline rank 2 = run rank 1")
    steps = run("compare_step_time", base_run_id=base, run_id=after)
    assert {(r["rank_id"], r["base_rank_id"], r["paired_by"]) for r in rank_rows(steps)} == {
        (0, None, "place"), (1, 2, "place"), (2, 1, "place"), (3, None, "place")}
    # the slower place is the one rank whose compute changed: the run's rank 1 against the baseline's rank 2
    computing = [(r["rank_id"], r["base_rank_id"], r["base_ns"], r["run_ns"], r["ratio"])
                 for r in rank_rows(steps, component="computing") if r["difference_ns"]]
    kernels = 16 * synth.KERNEL_NS
    assert computing == [(1, 2, kernels * STAGE, kernels * STAGE * SLOWER, pytest.approx(SLOWER))]
    assert [r["paired_by"] for r in steps if r["scope"] == "overall"] == [None] * 9
    # the same place holds the memory peak in both runs: no change
    memory = run("compare_memory", base_run_id=base, run_id=after)
    assert [r for r in memory if r["difference_bytes"]] == []
    peak, = rank_rows(memory, metric="peak_reserved_bytes", run_bytes=60 * synth.GIB)
    assert (peak["rank_id"], peak["base_rank_id"], peak["base_bytes"], peak["paired_by"]) == (2, 1, 60 * synth.GIB, "place")


def test_a_group_is_matched_through_the_rank_pairs(run, rows):
    base, after = renumbered_runs(rows)
    result = run("compare_communication", base_run_id=base, run_id=after)
    # the run's data-parallel group of stage 1 is ranks 1,3, the baseline's 2,3: one group, two numberings
    assert {(r["group_ranks"], r["base_group_ranks"], r["base_group_name"], r["run_group_name"])
            for r in result} == {("0,2", "0,1", "group_0", "group_0"), ("1,3", "2,3", "group_2", "group_1")}
    # the slower place's peer waits for it: its allreduce lasts longer, on the pair of rank 3
    changed = [(r["group_ranks"], r["scope"], r["rank_id"], r["base_rank_id"], r["paired_by"], r["metric"])
               for r in result if r["base_value"] != r["run_value"]]
    assert changed == [("1,3", "rank", 3, None, "place", "mean_time_ns"),
                       ("1,3", "overall", None, None, None, "mean_time_ns")]


def test_runs_that_state_no_shape_pair_by_rank_id(run, rows):
    base, after = renumbered_runs(rows, placed=False)
    pairing, = [r for r in run("compare_runs", base_run_id=base, run_id=after) if r["property"] == "rank_pairing"]
    assert (pairing["run_value"], pairing["differs"], pairing["note"]) == (
        "rank id", 0, "ranks paired by rank id, as neither run states its shape")
    steps = run("compare_step_time", base_run_id=base, run_id=after)
    assert {(r["base_rank_id"], r["paired_by"]) for r in rank_rows(steps)} == {(None, "rank id")}
    # by id, rank 1 (stage 0 in the baseline) and rank 2 (stage 1 in the baseline) both changed
    assert [(r["rank_id"], r["ratio"]) for r in rank_rows(steps, component="computing") if r["difference_ns"]] == [
        (1, pytest.approx(STAGE * SLOWER)), (2, pytest.approx(1 / STAGE))]


def test_two_one_rank_runs_pair_whatever_their_ids(run, rows):
    """A kineto trace's unknown rank -1 against another run's rank 0."""
    base, after = (build_one_rank(name, rank, start) for name, rank, start in (("gpu", -1, 1), ("npu", 0, 2)))
    steps = run("compare_step_time", base_run_id=base, run_id=after)
    assert {(r["rank_id"], r["base_rank_id"], r["paired_by"]) for r in rank_rows(steps)} == {(0, -1, "only rank")}
    assert rank_rows(steps, component="computing")[0]["ratio"] == 2.0
    pairing, = [r for r in run("compare_runs", base_run_id=base, run_id=after) if r["property"] == "rank_pairing"]
    assert pairing["note"] == "ranks paired as each run's only rank; paired ranks of other ids: baseline rank -1 = run rank 0"


def build_one_rank(name: str, rank: int, scale: int):
    """A run of one rank ``rank`` and one step, its one kernel ``scale`` x 1000 ns."""
    rid = run_id(name)
    source = rank_source(rank, run=name)
    StepFactory(rank_id=rank, step_id=1, start_ns=0, end_ns=STEP_NS, source_id=source)
    KernelFactory(rank_id=rank, source_id=source, name="MatMul", ts=100, dur=1000 * scale)
    return rid
