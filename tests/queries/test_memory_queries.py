"""The memory and interconnect queries on memory_record, op_memory and the link tables."""

from __future__ import annotations

import pytest

from factories.warehouse_rows import (
    HccsFactory, MemoryRecordFactory, NicFactory, OpMemoryFactory, PcieFactory, RoceFactory,
)


def test_memory_peak(run, rows):
    for ts, allocated, reserved in ((0, 100, 200), (10, 500, 600), (20, 300, 900), (30, 500, 900)):
        MemoryRecordFactory(rank_id=0, device_id=0, ts=ts, total_allocated_bytes=allocated,
                            total_reserved_bytes=reserved)
    MemoryRecordFactory(rank_id=1, device_id=1, ts=5, total_allocated_bytes=7, total_reserved_bytes=8)
    assert run("memory_peak") == [
        {"rank_id": 0, "device_id": 0, "peak_allocated_bytes": 500, "peak_reserved_bytes": 900, "ts_of_peak": 10},
        {"rank_id": 1, "device_id": 1, "peak_allocated_bytes": 7, "peak_reserved_bytes": 8, "ts_of_peak": 5},
    ]


def test_memory_curve_buckets(run, rows):
    # records at 0..99 ns: 4 buckets of 25 ns
    for ts in range(100):
        MemoryRecordFactory(rank_id=0, ts=ts, total_allocated_bytes=ts, total_reserved_bytes=1000 - ts)
    MemoryRecordFactory(rank_id=1, ts=5, total_allocated_bytes=10**9)
    result = run("memory_curve", rank_id=0, buckets=4)
    assert [(r["bucket"], r["start_ns"], r["samples"], r["max_allocated_bytes"], r["max_reserved_bytes"])
            for r in result] == [(0, 0, 25, 24, 1000), (1, 25, 25, 49, 975), (2, 50, 25, 74, 950),
                                 (3, 75, 25, 99, 925)]


def test_op_memory_top(run, rows):
    for name, size, dur in (("aten::empty", 100, 10), ("aten::empty", 300, 30), ("aten::mm", 1000, 5)):
        OpMemoryFactory(rank_id=0, name=name, size_bytes=size, dur=dur)
    OpMemoryFactory(rank_id=1, name="aten::cat", size_bytes=50, dur=1)
    result = run("op_memory_top", limit=2)
    assert [(r["rank_id"], r["name"], r["allocations"], r["total_bytes"], r["max_bytes"], r["avg_dur_ns"],
             r["max_dur_ns"]) for r in result] == [(0, "aten::mm", 1, 1000, 1000, 5, 5),
                                                   (0, "aten::empty", 2, 400, 300, 20, 30)]


@pytest.mark.parametrize(
    "kind,factory,rx_field,tx_field",
    (
        ("roce", RoceFactory, "rx_byte_rate", "tx_byte_rate"),
        ("nic", NicFactory, "rx_byte_rate", "tx_byte_rate"),
        ("hccs", HccsFactory, "rx_throughput", "tx_throughput"),
        ("pcie", PcieFactory, "rx_post_avg", "tx_post_avg"),
    ),
)
def test_interconnect_bandwidth(run, rows, kind, factory, rx_field, tx_field):
    for rx, tx in ((100.0, 10.0), (300.0, 30.0)):
        factory(rank_id=0, device_id=2, **{rx_field: rx, tx_field: tx})
    # another kind's samples stay out
    (RoceFactory if kind != "roce" else NicFactory)(rank_id=0, device_id=2, rx_byte_rate=1e12)
    assert run("interconnect_bandwidth", kind=kind) == [
        {"kind": kind, "rank_id": 0, "device_id": 2, "samples": 2, "avg_rx_bytes_per_s": 200.0,
         "max_rx_bytes_per_s": 300.0, "avg_tx_bytes_per_s": 20.0, "max_tx_bytes_per_s": 30.0},
    ]
    assert run("interconnect_bandwidth", kind=kind, rank_id=1) == []
