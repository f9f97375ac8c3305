"""The msprof-analyze recipe queries (queries/cluster/*.sql), every rank at once, in SQL."""

from __future__ import annotations

import statistics

import pytest

from factories.warehouse_rows import (
    CannApiFactory, CommunicationOpFactory, CommunicationTaskFactory, CounterFactory, CounterTrackFactory,
    KernelFactory, PytorchApiFactory,
    SliceFactory, StepFactory, rank_source, run_id,
)

DURATIONS = (10, 20, 30, 40, 100)


def stats_of(row: dict) -> tuple:
    return tuple(row[k] for k in ("count", "total_ns", "min_ns", "q1_ns", "median_ns", "q3_ns", "max_ns"))


def test_compute_op_sum_statistics(run, rows):
    for dur in DURATIONS:
        KernelFactory(rank_id=0, op_type="MatMul", name="MatMul_a", dur=dur)
    KernelFactory(rank_id=0, op_type="Add", name="Add_1", dur=7)
    KernelFactory(rank_id=1, op_type="MatMul", name="MatMul_b", dur=50)
    KernelFactory(rank_id=1, op_type="MatMul", name="MatMul_b", dur=70)
    KernelFactory(rank_id=0, op_type="hcom_allReduce_", op_class="communication", dur=10**6)
    result = {(r["rank_id"], r["name"]): r for r in run("compute_op_sum")}
    assert set(result) == {(0, "MatMul"), (0, "Add"), (1, "MatMul")}
    assert {r["run_id"] for r in result.values()} == {run_id("run")}
    matmul = result[(0, "MatMul")]
    # linear quartiles of 10 20 30 40 100: positions 1 and 3 (of 0..4) are values, 20 and 40
    assert stats_of(matmul) == (5, 200, 10, 20, 30, 40, 100)
    assert matmul["mean_ns"] == 40
    assert matmul["std_ns"] == pytest.approx(statistics.stdev(DURATIONS))
    # an even count: the median is the mean of the two middle values; the quartiles of 50 70 sit a
    # quarter of the way from one to the other (nearest rank would give 50 and 70)
    assert stats_of(result[(1, "MatMul")]) == (2, 120, 50, 55, 60, 65, 70)
    assert result[(0, "Add")]["std_ns"] is None


def test_compute_op_sum_over_all_ranks_by_name(run, rows):
    KernelFactory(rank_id=0, name="MatMul_a", op_type="MatMul", dur=10)
    KernelFactory(rank_id=1, name="MatMul_a", op_type="MatMul", dur=30)
    KernelFactory(rank_id=1, name="MatMul_b", op_type="MatMul", dur=5)
    result = run("compute_op_sum", group_by="name", per_rank="false")
    assert [(r["run_id"], r["rank_id"], r["name"], r["count"], r["total_ns"], r["median_ns"]) for r in result] == [
        (run_id("run"), None, "MatMul_a", 2, 40, 20), (run_id("run"), None, "MatMul_b", 1, 5, 5)]


def test_compute_op_sum_splits_an_operator_type_by_core_type(run, rows):
    # op_statistic.csv and msprof-analyze give MatMulV3 on AI_CORE and on MIX_AIC a row each
    for core, dur in (("AI_CORE", 10), ("AI_CORE", 30), ("MIX_AIC", 100)):
        KernelFactory(op_type="MatMulV3", accelerator_core=core, dur=dur)
    assert [(r["name"], r["core_type"], r["count"], r["total_ns"], r["q1_ns"]) for r in run("compute_op_sum")] == [
        ("MatMulV3", "MIX_AIC", 1, 100, 100), ("MatMulV3", "AI_CORE", 2, 40, 15)]
    (merged,) = run("compute_op_sum", per_core_type="false")
    assert (merged["core_type"], merged["count"], merged["q1_ns"]) == (None, 3, 20)


def test_hccl_sum(run, rows):
    for rank, dur in ((0, 100), (0, 300), (1, 200)):
        CommunicationOpFactory(rank_id=rank, op_type="hcom_allReduce_", dur=dur)
    (every_rank,) = run("hccl_sum", per_rank="no")
    assert (every_rank["run_id"], every_rank["rank_id"], every_rank["name"]) == (run_id("run"), None, "hcom_allReduce_")
    # 100 200 300: the quartiles sit at positions 0.5 and 1.5, half-way between two values
    assert stats_of(every_rank) == (3, 600, 100, 150, 200, 250, 300)
    assert [r["rank_id"] for r in run("hccl_sum")] == [0, 1]


def test_cann_api_sum(run, rows):
    for rank, dur in ((0, 5), (1, 15), (1, 25), (0, 35)):
        CannApiFactory(rank_id=rank, name="aclnnAdd", dur=dur)
    (row,) = run("cann_api_sum")
    assert (row["run_id"], row["rank_id"]) == (run_id("run"), None)
    # 5 15 25 35: the quartiles sit at positions 0.75 and 2.25
    assert stats_of(row) == (4, 80, 5, 12.5, 20, 27.5, 35)
    assert [(r["rank_id"], r["total_ns"]) for r in run("cann_api_sum", per_rank=1)] == [(0, 40), (1, 40)]


def test_mstx_sum(run, rows):
    PytorchApiFactory(rank_id=0, type="mstx", name="forward", dur=100)
    PytorchApiFactory(rank_id=0, type="mstx", name="forward", dur=300)
    PytorchApiFactory(rank_id=0, type="op", name="forward", dur=10**6)
    (row,) = run("mstx_sum")
    assert (row["run_id"], row["rank_id"], row["name"], row["count"], row["total_ns"], row["median_ns"]) == (
        run_id("run"), 0, "forward", 2, 400, 200)
    # over all ranks the ranges of one name in a rank's step are numbered, as msprof-analyze does
    assert [(r["rank_id"], r["name"], r["count"]) for r in run("mstx_sum", per_rank=0)] == [
        (None, "forward_1", 1), (None, "forward_0", 1)]


def test_mstx_sum_pairs_the_framework_marks_of_a_thread(run, rows):
    # the framework's records of marks (length 0): sync_start at 0 and 10, sync_stop at 40 and 100
    # on thread 1; a sync_stop on thread 2 with no start open there closes nothing
    for ts, name, thread in ((0, "sync_start", 1), (10, "sync_start", 1), (20, "sync_stop", 2),
                             (40, "sync_stop", 1), (100, "sync_stop", 1), (110, "tick", 1)):
        PytorchApiFactory(rank_id=0, type="mstx", name=name, ts=ts, dur=0, global_tid=thread)
    (row,) = run("mstx_sum")
    # the stop at 40 closes the start at 10 (30 ns), the stop at 100 the one at 0 (100 ns)
    assert (row["name"], row["count"], row["min_ns"], row["max_ns"]) == ("sync", 2, 30, 100)


def test_communication_slow_rank(run, rows):
    # op 1: rank 2 starts 50 ns after rank 0; op 2: rank 1 starts 5 ns late; op 3 ran on one rank only
    for rank, name, ts in ((0, "hcom_allReduce__1", 1000), (1, "hcom_allReduce__1", 1010), (2, "hcom_allReduce__1", 1050),
                           (0, "hcom_allReduce__2", 2000), (1, "hcom_allReduce__2", 2005), (2, "hcom_allReduce__2", 2000),
                           (2, "hcom_send__3", 3000)):
        CommunicationOpFactory(rank_id=rank, name=name, ts=ts)
    result = run("communication_slow_rank")
    assert {r["run_id"] for r in result} == {run_id("run")}
    assert [(r["rank_id"], r["ops"], r["slow_affect_count"], r["total_delay_ns"], r["max_delay_ns"])
            for r in result] == [(2, 2, 1, 50, 50), (1, 2, 1, 5, 5), (0, 2, 0, 0, None)]
    assert [r["slow_affect_count"] for r in run("communication_slow_rank", min_gap_ns=10)] == [1, 0, 0]


def test_communication_slow_link(run, rows):
    thread = SliceFactory(dur=1)["thread_id"]
    # three SDMA links at 1, 2 and 0.5 GB/s (median 1 GB/s), one RDMA link
    for src, dst, size, dur, transport in ((0, 1, 1000, 1000, "SDMA"), (1, 0, 2000, 1000, "SDMA"),
                                           (0, 2, 500, 1000, "SDMA"), (0, 3, 100, 1000, "RDMA")):
        task_slice = SliceFactory(thread_id=thread, dur=dur)
        CommunicationTaskFactory(src_rank=src, dst_rank=dst, size_bytes=size, transport_type=transport,
                                 slice_id=task_slice["id"])
    # a task without a peer (4294967295 is -1 as uint32) is not a link
    CommunicationTaskFactory(src_rank=0, dst_rank=4294967295, size_bytes=32, slice_id=task_slice["id"])
    result = run("communication_slow_link")
    assert {r["run_id"] for r in result} == {run_id("run")}
    assert [(r["transport_type"], r["link_type"], r["src_rank"], r["dst_rank"], r["flagged"]) for r in result] == [
        ("RDMA", "HCCS", 0, 3, 0), ("SDMA", "HCCS", 0, 2, 1), ("SDMA", "HCCS", 0, 1, 0), ("SDMA", "HCCS", 1, 0, 0)]
    slow = result[1]
    assert (slow["bandwidth_bytes_per_s"], slow["median_bytes_per_s"], slow["ratio"]) == (5e8, 1e9, 0.5)


def test_free_analysis(run, rows):
    StepFactory(rank_id=0, step_id=4, start_ns=0, end_ns=10_000)
    # busy 0..100 and 50..300 (one island), 2300..2400, then 2400..2500 touching; gap 300..2300 (2000 ns)
    KernelFactory(rank_id=0, ts=0, dur=100)
    KernelFactory(rank_id=0, ts=50, dur=250)
    CommunicationOpFactory(rank_id=0, ts=2300, dur=100)
    KernelFactory(rank_id=0, ts=2400, dur=100)
    KernelFactory(rank_id=0, ts=2600, dur=10)
    KernelFactory(rank_id=1, ts=0, dur=10)
    KernelFactory(rank_id=1, ts=20_010, dur=10)
    result = run("free_analysis", min_gap_ns=100)
    # rank 1 has no steps: its gap is in its one window, the whole capture (step -1)
    assert [(r["run_id"], r["rank_id"], r["start_ns"], r["end_ns"], r["duration_ns"], r["step_id"])
            for r in result] == [(run_id("run"), 1, 10, 20_010, 20_000, -1), (run_id("run"), 0, 300, 2300, 2000, 4),
                                 (run_id("run"), 0, 2500, 2600, 100, 4)]
    assert [r["duration_ns"] for r in run("free_analysis", rank_id=0, min_gap_ns=101)] == [2000]


def test_ep_load_balance(run, rows):
    for rank, dur in ((0, 100), (0, 100), (1, 100), (2, 500)):
        KernelFactory(rank_id=rank, op_type="GroupedMatmul", dur=dur)
    KernelFactory(rank_id=1, op_type="MatMul", dur=10**6)
    result = run("ep_load_balance")
    assert {r["run_id"] for r in result} == {run_id("run")}
    assert [(r["rank_id"], r["kernel_count"], r["total_ns"], r["flagged"]) for r in result] == [
        (2, 1, 500, 1), (0, 2, 200, 0), (1, 1, 100, 0)]
    assert result[0]["mean_over_ranks_ns"] == pytest.approx(800 / 3)
    assert result[0]["ratio"] == pytest.approx(500 / (800 / 3))


def test_freq_analysis(run, rows):
    for rank, values in ((0, (1800, 1800)), (1, (1800, 1200, 1800)), (2, (800, 800))):
        track = CounterTrackFactory(rank_id=rank, name=f"device{rank}.aicore_freq", unit="MHz")
        for value in values:
            CounterFactory(track_id=track["id"], value=value)
    CounterFactory(track_id=CounterTrackFactory(rank_id=0, name="device0.hbm.read")["id"], value=1.0)
    result = run("freq_analysis")
    assert {r["run_id"] for r in result} == {run_id("run")}
    assert [(r["rank_id"], r["samples"], r["min_mhz"], r["max_mhz"], r["below_nominal_samples"], r["abnormal"],
             r["idle"]) for r in result] == [
        (1, 3, 1200, 1800, 1, 1, 0), (2, 2, 800, 800, 2, 1, 1), (0, 2, 1800, 1800, 0, 0, 0)]
    assert result[0]["avg_mhz"] == pytest.approx(1600)
    assert [r["abnormal"] for r in run("freq_analysis", nominal_mhz=1000)] == [1, 0, 0]


def test_communication_bottleneck(run, rows):
    # instance 1: rank 0 starts at 1000, rank 1 at 1400 (wait 400); rank 1 computed 300 of those 400 ns
    # instance 2: rank 1 first at 5000, rank 0 at 5100 (wait 100), rank 0 idle meanwhile
    for rank, name, ts, dur in ((0, "hcom_allReduce__1", 1000, 500), (1, "hcom_allReduce__1", 1400, 100),
                                (1, "hcom_allReduce__2", 5000, 200), (0, "hcom_allReduce__2", 5100, 100)):
        CommunicationOpFactory(rank_id=rank, name=name, ts=ts, dur=dur)
    KernelFactory(rank_id=1, ts=900, dur=400)  # 1000..1300 inside the wait
    KernelFactory(rank_id=0, ts=1000, dur=400)  # the fast rank's kernels do not count
    result = run("communication_bottleneck")
    assert {r["run_id"] for r in result} == {run_id("run")}
    assert [(r["name"], r["start_ns"], r["end_ns"], r["fast_rank_id"], r["slow_rank_id"], r["wait_ns"],
             r["slow_rank_kernel_ns"], r["reason"]) for r in result] == [
        ("hcom_allReduce__1", 1000, 1500, 0, 1, 400, 300, "slow rank computing"),
        ("hcom_allReduce__2", 5000, 5200, 1, 0, 100, 0, "slow rank idle (host or launch bound)"),
    ]
    assert [r["name"] for r in run("communication_bottleneck", min_wait_ns=200)] == ["hcom_allReduce__1"]


# --- runs are never added together; one fact, one source ------------------------------------------


def test_statistics_are_per_run(run, rows):
    this, other = run_id("run"), run_id("other")
    # rank 0 of each run: 10 and 30 ns in run "run", 1000 ns in run "other", of every kind of item
    for source, dur in ((rank_source(0), 10), (rank_source(0), 30), (rank_source(0, run="other"), 1000)):
        KernelFactory(rank_id=0, source_id=source, op_type="MatMul", dur=dur)
        CommunicationOpFactory(rank_id=0, source_id=source, op_type="hcom_allReduce_", dur=dur)
        CannApiFactory(rank_id=0, source_id=source, name="aclnnAdd", dur=dur)
        PytorchApiFactory(rank_id=0, source_id=source, type="mstx", name="forward", dur=dur)
    for name in ("compute_op_sum", "hccl_sum", "cann_api_sum", "mstx_sum"):
        # mstx_sum over all ranks numbers the two ranges of one name (test_mstx_sum)
        for per_rank in (0, 1) if name != "mstx_sum" else (1,):
            result = run(name, per_rank=per_rank)
            rank = 0 if per_rank else None
            assert [(r["run_id"], r["rank_id"], r["count"], r["total_ns"], r["median_ns"]) for r in result] == [
                (this, rank, 2, 40, 20), (other, rank, 1, 1000, 1000)], (name, per_rank)
        assert [r["total_ns"] for r in run(name, run_id=other)] == [1000], name


def test_a_rank_with_a_rank_db_and_kernel_details_answers_from_the_rank_db(run, rows):
    text = rank_source(0, kind="kernel_details_csv")
    # the db export of rank 0: two expert kernels, one HCCL operator; the text export the same again
    for source in (rank_source(0), text):
        KernelFactory(rank_id=0, source_id=source, op_type="GroupedMatmul", ts=0, dur=100)
        KernelFactory(rank_id=0, source_id=source, op_type="GroupedMatmul", ts=5000, dur=100)
    CommunicationOpFactory(rank_id=0, name="hcom_allReduce__1_0_1", op_type="hcom_allReduce_", ts=1000, dur=50)
    KernelFactory(rank_id=0, source_id=text, name="hcom_allReduce__1_0_1", op_type="hcom_allReduce_",
                  op_class="communication", ts=1000, dur=50)
    # a text-only kernel inside the db export's gap would close it if the text export were read too
    KernelFactory(rank_id=0, source_id=text, op_type="GroupedMatmul", ts=2000, dur=2000)
    (compute,) = run("compute_op_sum")
    assert (compute["name"], compute["count"], compute["total_ns"]) == ("GroupedMatmul", 2, 200)
    (hccl,) = run("hccl_sum")
    assert (hccl["name"], hccl["count"], hccl["total_ns"]) == ("hcom_allReduce_", 1, 50)
    (balance,) = run("ep_load_balance")
    assert (balance["kernel_count"], balance["total_ns"]) == (2, 200)
    assert [(r["start_ns"], r["end_ns"]) for r in run("free_analysis", min_gap_ns=100)] == [(1050, 5000), (100, 1000)]


def test_collectives_are_matched_within_a_run(run, rows):
    this, other = run_id("run"), run_id("other")
    # run "run": ranks 0 and 1 run instance 1, rank 1 starts 400 ns late and computes 300 ns of it
    CommunicationOpFactory(rank_id=0, name="hcom_allReduce__1", ts=1000, dur=500)
    CommunicationOpFactory(rank_id=1, name="hcom_allReduce__1", ts=1400, dur=100)
    KernelFactory(rank_id=1, ts=900, dur=400)
    # run "other": the same name on rank 0 and 1 much later, and kernels of its rank 1 in run's wait window
    for rank, ts in ((0, 9000), (1, 9010)):
        CommunicationOpFactory(rank_id=rank, source_id=rank_source(rank, run="other"), name="hcom_allReduce__1",
                               ts=ts, dur=100)
    KernelFactory(rank_id=1, source_id=rank_source(1, run="other"), ts=1000, dur=400)
    bottleneck = run("communication_bottleneck")
    assert [(r["run_id"], r["name"], r["start_ns"], r["fast_rank_id"], r["slow_rank_id"], r["wait_ns"],
             r["slow_rank_kernel_ns"]) for r in bottleneck] == [
        (this, "hcom_allReduce__1", 1000, 0, 1, 400, 300), (other, "hcom_allReduce__1", 9000, None, None, 10, 0)]
    # run "other": equal durations, as msprof-analyze says no rank is slow
    assert bottleneck[1]["reason"] == "no slow rank: durations differ by under 0.05 of the longest"
    assert [r["run_id"] for r in run("communication_bottleneck", run_id=other)] == [other]
    assert [r["run_id"] for r in run("communication_bottleneck", limit=1)] == [this, other]
    slow = run("communication_slow_rank")
    assert [(r["run_id"], r["rank_id"], r["ops"], r["slow_affect_count"], r["total_delay_ns"]) for r in slow] == [
        (this, 1, 1, 1, 400), (this, 0, 1, 0, 0), (other, 1, 1, 1, 10), (other, 0, 1, 0, 0)]


def test_cluster_answers_of_two_runs_with_the_same_ranks(run, rows):
    this, other = run_id("run"), run_id("other")
    # expert kernels: rank 0 100 ns, rank 1 300 ns in run; rank 0 and 1 600 ns each in other
    for rank, dur, run_name in ((0, 100, "run"), (1, 300, "run"), (0, 600, "other"), (1, 600, "other")):
        KernelFactory(rank_id=rank, source_id=rank_source(rank, run=run_name), op_type="GroupedMatmul", dur=dur,
                      ts=0)
    balance = run("ep_load_balance", threshold=1.2)
    assert [(r["run_id"], r["rank_id"], r["total_ns"], r["mean_over_ranks_ns"], r["flagged"]) for r in balance] == [
        (this, 1, 300, 200, 1), (this, 0, 100, 200, 0), (other, 0, 600, 600, 0), (other, 1, 600, 600, 0)]
    # the other run's rank 0 runs a kernel in the middle of this run's rank 0 gap: the gap stays
    KernelFactory(rank_id=0, ts=10_000, dur=100)
    KernelFactory(rank_id=0, source_id=rank_source(0, run="other"), ts=5000, dur=100)
    gaps = run("free_analysis", rank_id=0, min_gap_ns=1000, limit=1)
    assert [(r["run_id"], r["start_ns"], r["end_ns"]) for r in gaps] == [(this, 100, 10_000), (other, 600, 5000)]
    # links: the median is over each run's links of a kind
    thread = SliceFactory(dur=1)["thread_id"]
    for src, dst, size, run_name in ((0, 1, 1000, "run"), (1, 0, 3000, "run"), (0, 1, 100, "other")):
        task_slice = SliceFactory(thread_id=thread, dur=1000)
        CommunicationTaskFactory(rank_id=src, source_id=rank_source(src, run=run_name), src_rank=src, dst_rank=dst,
                                 size_bytes=size, slice_id=task_slice["id"])
    links = run("communication_slow_link", threshold=0.8)
    assert [(r["run_id"], r["src_rank"], r["median_bytes_per_s"], r["flagged"]) for r in links] == [
        (this, 0, 2e9, 1), (this, 1, 2e9, 0), (other, 0, 1e8, 0)]
    # frequency samples of each run's rank 0
    for run_name, values in (("run", (1800, 1200)), ("other", (1800, 1800))):
        track = CounterTrackFactory(rank_id=0, source_id=rank_source(0, run=run_name), name="device0.aicore_freq")
        for value in values:
            CounterFactory(track_id=track["id"], source_id=track["source_id"], value=value)
    freq = run("freq_analysis")
    assert [(r["run_id"], r["rank_id"], r["samples"], r["min_mhz"], r["abnormal"]) for r in freq] == [
        (this, 0, 2, 1200, 1), (other, 0, 2, 1800, 0)]
