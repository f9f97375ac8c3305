"""The msprof-analyze recipe queries (queries/cluster/*.sql), every rank at once, in SQL."""

from __future__ import annotations

import statistics

import pytest

from factories.warehouse_rows import (
    CannApiFactory, CommunicationOpFactory, CommunicationTaskFactory, CounterFactory, CounterTrackFactory,
    KernelFactory, PytorchApiFactory,
    SliceFactory, StepFactory,
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
    matmul = result[(0, "MatMul")]
    # nearest-rank quartiles of 10 20 30 40 100: ceil(1.25) = 2nd, ceil(3.75) = 4th
    assert stats_of(matmul) == (5, 200, 10, 20, 30, 40, 100)
    assert matmul["mean_ns"] == 40
    assert matmul["std_ns"] == pytest.approx(statistics.stdev(DURATIONS))
    # an even count: the median is the mean of the two middle values
    assert stats_of(result[(1, "MatMul")]) == (2, 120, 50, 50, 60, 70, 70)
    assert result[(0, "Add")]["std_ns"] is None


def test_compute_op_sum_over_all_ranks_by_name(run, rows):
    KernelFactory(rank_id=0, name="MatMul_a", op_type="MatMul", dur=10)
    KernelFactory(rank_id=1, name="MatMul_a", op_type="MatMul", dur=30)
    KernelFactory(rank_id=1, name="MatMul_b", op_type="MatMul", dur=5)
    result = run("compute_op_sum", group_by="name", per_rank="false")
    assert [(r["rank_id"], r["name"], r["count"], r["total_ns"], r["median_ns"]) for r in result] == [
        (None, "MatMul_a", 2, 40, 20), (None, "MatMul_b", 1, 5, 5)]


def test_hccl_sum(run, rows):
    for rank, dur in ((0, 100), (0, 300), (1, 200)):
        CommunicationOpFactory(rank_id=rank, op_type="hcom_allReduce_", dur=dur)
    (every_rank,) = run("hccl_sum", per_rank="no")
    assert (every_rank["rank_id"], every_rank["name"]) == (None, "hcom_allReduce_")
    assert stats_of(every_rank) == (3, 600, 100, 100, 200, 300, 300)
    assert [r["rank_id"] for r in run("hccl_sum")] == [0, 1]


def test_cann_api_sum(run, rows):
    for rank, dur in ((0, 5), (1, 15), (1, 25), (0, 35)):
        CannApiFactory(rank_id=rank, name="aclnnAdd", dur=dur)
    (row,) = run("cann_api_sum")
    assert stats_of(row) == (4, 80, 5, 5, 20, 25, 35)
    assert [(r["rank_id"], r["total_ns"]) for r in run("cann_api_sum", per_rank=1)] == [(0, 40), (1, 40)]


def test_mstx_sum(run, rows):
    PytorchApiFactory(rank_id=0, type="mstx", name="forward", dur=100)
    PytorchApiFactory(rank_id=0, type="mstx", name="forward", dur=300)
    PytorchApiFactory(rank_id=0, type="op", name="forward", dur=10**6)
    (row,) = run("mstx_sum")
    assert (row["rank_id"], row["name"], row["count"], row["total_ns"], row["median_ns"]) == (0, "forward", 2, 400, 200)


def test_communication_slow_rank(run, rows):
    # op 1: rank 2 starts 50 ns after rank 0; op 2: rank 1 starts 5 ns late; op 3 ran on one rank only
    for rank, name, ts in ((0, "hcom_allReduce__1", 1000), (1, "hcom_allReduce__1", 1010), (2, "hcom_allReduce__1", 1050),
                           (0, "hcom_allReduce__2", 2000), (1, "hcom_allReduce__2", 2005), (2, "hcom_allReduce__2", 2000),
                           (2, "hcom_send__3", 3000)):
        CommunicationOpFactory(rank_id=rank, name=name, ts=ts)
    result = run("communication_slow_rank")
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
    assert [(r["rank_id"], r["start_ns"], r["end_ns"], r["duration_ns"], r["step_id"]) for r in result] == [
        (1, 10, 20_010, 20_000, None), (0, 300, 2300, 2000, 4), (0, 2500, 2600, 100, 4)]
    assert [r["duration_ns"] for r in run("free_analysis", rank_id=0, min_gap_ns=101)] == [2000]


def test_ep_load_balance(run, rows):
    for rank, dur in ((0, 100), (0, 100), (1, 100), (2, 500)):
        KernelFactory(rank_id=rank, op_type="GroupedMatmul", dur=dur)
    KernelFactory(rank_id=1, op_type="MatMul", dur=10**6)
    result = run("ep_load_balance")
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
    assert [(r["name"], r["start_ns"], r["end_ns"], r["fast_rank_id"], r["slow_rank_id"], r["wait_ns"],
             r["slow_rank_kernel_ns"], r["reason"]) for r in result] == [
        ("hcom_allReduce__1", 1000, 1500, 0, 1, 400, 300, "slow rank computing"),
        ("hcom_allReduce__2", 5000, 5200, 1, 0, 100, 0, "slow rank idle (host or launch bound)"),
    ]
    assert [r["name"] for r in run("communication_bottleneck", min_wait_ns=200)] == ["hcom_allReduce__1"]
