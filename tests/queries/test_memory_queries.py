"""The memory and interconnect queries on memory_record, op_memory and the link tables.

The profiler's memory components are never mixed: APP (the whole process) and the framework's
PTA, GE and PTA+GE each are their own series and their own peak; two runs are never added; a
rank exported both as a database and as text is read once (answer_source)."""

from __future__ import annotations

import csv
import sqlite3
from collections import defaultdict
from decimal import Decimal

import pytest

from factories.warehouse_rows import (
    HccsFactory, MemoryRecordFactory, NicFactory, OpMemoryFactory, PcieFactory, RoceFactory, rank_source, run_id,
)
from warehouse import db, ingest, queries

MIB = 1 << 20


def peaks(result) -> list[tuple]:
    return [(r["run_id"], r["rank_id"], r["device_id"], r["component"], r["samples"], r["peak_allocated_bytes"],
             r["peak_reserved_bytes"], r["ts_of_peak"], r["ts_of_reserved_peak"]) for r in result]


def test_memory_peak_keeps_app_and_the_framework_apart(run, rows):
    # APP (the whole process) records only reserved memory, more than the framework's
    for ts, reserved in ((0, 2000), (15, 2600), (25, 2400)):
        MemoryRecordFactory(rank_id=0, component="APP", ts=ts, total_allocated_bytes=None,
                            total_reserved_bytes=reserved, total_active_bytes=None)
    for ts, allocated, reserved in ((0, 100, 200), (10, 500, 600), (20, 300, 900), (30, 500, 900)):
        MemoryRecordFactory(rank_id=0, component="PTA", ts=ts, total_allocated_bytes=allocated,
                            total_reserved_bytes=reserved)
    MemoryRecordFactory(rank_id=1, device_id=1, component="PTA", ts=5, total_allocated_bytes=7,
                        total_reserved_bytes=8)
    run_a = run_id("run")
    assert peaks(run("memory_peak")) == [
        (run_a, 0, 0, "APP", 3, None, 2600, None, 15),
        (run_a, 0, 0, "PTA", 4, 500, 900, 10, 20),
        (run_a, 1, 1, "PTA", 1, 7, 8, 5, 5),
    ]
    assert [r["component"] for r in run("memory_peak", rank_id=1)] == ["PTA"]


def test_memory_peak_never_adds_two_runs(run, rows):
    """Rank 0 of two runs: one row each, the run's own peak, and run_id answers one run only."""
    for name, allocated in (("a", 100), ("b", 700)):
        source_id = rank_source(0, run=name)
        for ts, share in ((0, 1), (10, 3), (20, 2)):
            MemoryRecordFactory(rank_id=0, source_id=source_id, ts=ts, total_allocated_bytes=allocated * share,
                                total_reserved_bytes=allocated * share + 50)
    run_a, run_b = run_id("a"), run_id("b")
    assert peaks(run("memory_peak")) == [
        (run_a, 0, 0, "PTA", 3, 300, 350, 10, 10),
        (run_b, 0, 0, "PTA", 3, 2100, 2150, 10, 10),
    ]
    assert peaks(run("memory_peak", run_id=run_b)) == [(run_b, 0, 0, "PTA", 3, 2100, 2150, 10, 10)]


def test_memory_peak_reads_a_rank_exported_twice_once(run, rows):
    """The rank db answers the rank's memory; its text export's memory_record.csv stays out."""
    rank_db = rank_source(0, kind="rank_db")
    text = rank_source(0, kind="memory_record_csv")
    for source_id in (rank_db, text):
        for ts, allocated in ((0, 10), (10, 40)):
            MemoryRecordFactory(rank_id=0, source_id=source_id, ts=ts, total_allocated_bytes=allocated,
                                total_reserved_bytes=64)
    # the text export also has APP, and a higher (different capture) PTA sample: neither is added
    MemoryRecordFactory(rank_id=0, source_id=text, component="APP", ts=5, total_allocated_bytes=None,
                        total_reserved_bytes=999)
    MemoryRecordFactory(rank_id=0, source_id=text, ts=20, total_allocated_bytes=41, total_reserved_bytes=64)
    assert peaks(run("memory_peak")) == [(run_id("run"), 0, 0, "PTA", 2, 40, 64, 10, 0)]
    # a rank with only the text export: the text answers
    only_text = rank_source(1, kind="memory_record_csv")
    MemoryRecordFactory(rank_id=1, source_id=only_text, component="APP", ts=5, total_allocated_bytes=None,
                        total_reserved_bytes=77)
    assert peaks(run("memory_peak", rank_id=1)) == [(run_id("run"), 1, 0, "APP", 1, None, 77, None, 5)]


def test_memory_curve_buckets(run, rows):
    # records at 0..99 ns: 4 buckets of 25 ns
    for ts in range(100):
        MemoryRecordFactory(rank_id=0, ts=ts, total_allocated_bytes=ts, total_reserved_bytes=1000 - ts)
    MemoryRecordFactory(rank_id=1, ts=5, total_allocated_bytes=10**9)
    result = run("memory_curve", rank_id=0, buckets=4)
    assert [(r["component"], r["bucket"], r["start_ns"], r["samples"], r["max_allocated_bytes"],
             r["max_reserved_bytes"]) for r in result] == [
        ("PTA", 0, 0, 25, 24, 1000), ("PTA", 1, 25, 25, 49, 975), ("PTA", 2, 50, 25, 74, 950),
        ("PTA", 3, 75, 25, 99, 925)]


def test_memory_curve_draws_one_series_per_component(run, rows):
    """APP and PTA of one rank: two series on the same buckets (the rank's span, 0..99 ns), never one
    series alternating between the process's and the framework's memory."""
    for ts in range(0, 100, 10):
        MemoryRecordFactory(rank_id=0, component="APP", ts=ts, total_allocated_bytes=None,
                            total_reserved_bytes=5000 + ts)
    for ts in range(5, 100, 10):
        MemoryRecordFactory(rank_id=0, component="PTA", ts=ts, total_allocated_bytes=ts, total_reserved_bytes=2 * ts)
    MemoryRecordFactory(rank_id=0, component="PTA", ts=99, total_allocated_bytes=1, total_reserved_bytes=1)
    result = run("memory_curve", rank_id=0, buckets=2)
    assert [(r["component"], r["bucket"], r["start_ns"], r["samples"], r["max_allocated_bytes"],
             r["max_reserved_bytes"]) for r in result] == [
        ("APP", 0, 0, 5, None, 5040), ("APP", 1, 50, 5, None, 5090),
        ("PTA", 0, 0, 5, 45, 90), ("PTA", 1, 50, 6, 95, 190)]
    # one component asked for: its series alone, on its own span (5..99 ns: buckets of 47.5 ns)
    only = run("memory_curve", rank_id=0, component="PTA", buckets=2)
    assert [(r["component"], r["bucket"], r["start_ns"], r["samples"], r["max_allocated_bytes"]) for r in only] == [
        ("PTA", 0, 5, 5, 45), ("PTA", 1, 52, 6, 95)]


def test_memory_curve_per_run_and_answering_input(run, rows):
    """Rank 0 in two runs (different clocks) gives a series per run, each on its own span; the text
    export of a rank that also has its db is not added to it."""
    for name, base in (("a", 0), ("b", 1_000_000)):
        source_id = rank_source(0, run=name)
        for ts in range(4):
            MemoryRecordFactory(rank_id=0, source_id=source_id, ts=base + ts, total_allocated_bytes=base + ts)
    text = rank_source(0, run="a", kind="memory_record_csv")
    for ts in range(4):
        MemoryRecordFactory(rank_id=0, source_id=text, ts=ts, total_allocated_bytes=10**9)
    run_a, run_b = run_id("a"), run_id("b")
    result = run("memory_curve", rank_id=0, buckets=2)
    assert [(r["run_id"], r["bucket"], r["start_ns"], r["samples"], r["max_allocated_bytes"]) for r in result] == [
        (run_a, 0, 0, 2, 1), (run_a, 1, 2, 2, 3),
        (run_b, 0, 1_000_000, 2, 1_000_001), (run_b, 1, 1_000_002, 2, 1_000_003)]
    assert {r["run_id"] for r in run("memory_curve", rank_id=0, run_id=run_b)} == {run_b}


def test_op_memory_top(run, rows):
    for name, size, dur in (("aten::empty", 100, 10), ("aten::empty", 300, 30), ("aten::mm", 1000, 5)):
        OpMemoryFactory(rank_id=0, name=name, size_bytes=size, dur=dur)
    OpMemoryFactory(rank_id=1, name="aten::cat", size_bytes=50, dur=1)
    result = run("op_memory_top", limit=2)
    assert [(r["run_id"], r["rank_id"], r["name"], r["allocations"], r["total_bytes"], r["max_bytes"],
             r["avg_dur_ns"], r["max_dur_ns"]) for r in result] == [
        (run_id("run"), 0, "aten::mm", 1, 1000, 1000, 5, 5), (run_id("run"), 0, "aten::empty", 2, 400, 300, 20, 30)]


def test_op_memory_top_per_run_and_answering_input(run, rows):
    """Two runs are not summed; the rank's operator_memory.csv is not added to its db's OP_MEMORY."""
    for name in ("a", "b"):
        OpMemoryFactory(rank_id=0, source_id=rank_source(0, run=name), name="aten::empty", size_bytes=100)
    OpMemoryFactory(rank_id=0, source_id=rank_source(0, run="a", kind="operator_memory_csv"), name="aten::empty",
                    size_bytes=100)
    result = run("op_memory_top")
    assert [(r["run_id"], r["name"], r["allocations"], r["total_bytes"]) for r in result] == [
        (run_id("a"), "aten::empty", 1, 100), (run_id("b"), "aten::empty", 1, 100)]
    assert [r["run_id"] for r in run("op_memory_top", run_id=run_id("b"))] == [run_id("b")]


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
        {"run_id": run_id("run"), "kind": kind, "rank_id": 0, "device_id": 2, "samples": 2, "avg_rx_bytes_per_s": 200.0,
         "max_rx_bytes_per_s": 300.0, "avg_tx_bytes_per_s": 20.0, "max_tx_bytes_per_s": 30.0},
    ]
    assert run("interconnect_bandwidth", kind=kind, rank_id=1) == []


# --- the real level0 samples: rank 0 exported as a database and as text -------------------------------

DB_RANK = "msinsight/pytorch/db/level0/rank0_ascend_pt"
TEXT_RANK = "msinsight/pytorch/text/level0/rank0_ascend_pt"


def raw_db_peaks(realdata) -> dict[str, tuple]:
    """Per component of the rank db's MEMORY_RECORD, and APP from NPU_MEM's app rows (ddr + hbm, reserved only):
    (rows, max allocated, max reserved), read directly."""
    path = realdata / DB_RANK / "ASCEND_PROFILER_OUTPUT" / "ascend_pytorch_profiler_0.db"
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True)
    try:
        return {component: (count, allocated, reserved) for component, count, allocated, reserved in conn.execute(
            "SELECT s.value, count(*), max(m.totalAllocated), max(m.totalReserved) FROM MEMORY_RECORD AS m "
            "JOIN STRING_IDS AS s ON s.id = m.component GROUP BY s.value "
            "UNION ALL SELECT 'APP', count(*), NULL, max(n.ddr + n.hbm) FROM NPU_MEM AS n "
            "JOIN STRING_IDS AS s ON s.id = n.type WHERE s.value = 'app'")}
    finally:
        conn.close()


def raw_text_peaks(realdata) -> dict[str, tuple]:
    """Per Component of memory_record.csv: (rows, max allocated, max reserved) in bytes (the CSV is in MiB)."""
    values = defaultdict(lambda: ([], []))
    path = realdata / TEXT_RANK / "ASCEND_PROFILER_OUTPUT" / "memory_record.csv"
    with open(path, newline="", encoding="utf-8") as handle:
        for record in csv.DictReader(handle):
            for column, kept in zip(("Total Allocated(MB)", "Total Reserved(MB)"), values[record["Component"]]):
                if record[column].strip():
                    kept.append(int(Decimal(record[column].strip()) * MIB))
    counts = defaultdict(int)
    with open(path, newline="", encoding="utf-8") as handle:
        for record in csv.DictReader(handle):
            counts[record["Component"]] += 1
    return {component: (counts[component], max(allocated, default=None), max(reserved, default=None))
            for component, (allocated, reserved) in values.items()}


def peak_rows(conn, **params) -> dict:
    columns, result = queries.get("memory_peak").run(conn, params)
    return [dict(zip(columns, row)) for row in result]


@pytest.fixture(scope="module")
def real_memory(realdata, tmp_path_factory):
    """Two warehouses: the db and the text export of rank 0 as two runs; and both as one run."""
    apart = db.connect(tmp_path_factory.mktemp("memory_apart") / "warehouse.db")
    results = ingest.ingest_paths(apart, [realdata / DB_RANK, realdata / TEXT_RANK])
    assert [r for r in results if r.status == "failed"] == []
    together = db.connect(tmp_path_factory.mktemp("memory_together") / "warehouse.db")
    for path in (DB_RANK, TEXT_RANK):
        results = ingest.ingest_paths(together, [realdata / path], run_name="rank0 twice")
        assert [r for r in results if r.status == "failed"] == []
    yield apart, together
    apart.close()
    together.close()


def test_real_memory_peak_per_component_matches_each_export(real_memory, realdata):
    apart, _ = real_memory
    db_run, text_run = (apart.execute("SELECT run_id FROM source WHERE kind = ?", (kind,)).fetchone()[0]
                        for kind in ("rank_db", "memory_record_csv"))
    assert db_run != text_run
    for run, raw in ((db_run, raw_db_peaks(realdata)), (text_run, raw_text_peaks(realdata))):
        got = {r["component"]: (r["samples"], r["peak_allocated_bytes"], r["peak_reserved_bytes"])
               for r in peak_rows(apart, run_id=run)}
        assert got == raw
        assert {r["rank_id"] for r in peak_rows(apart, run_id=run)} == {0}
    # both exports answer every component, APP included (the db's from its NPU_MEM)
    assert set(raw_db_peaks(realdata)) == set(raw_text_peaks(realdata)) == {"APP", "GE", "PTA", "PTA+GE"}


def test_real_app_peak_agrees_between_the_db_and_the_text_export(real_memory):
    # two captures of one model (the db's and the text's): the process's peak within 1 % (here 4 KiB apart)
    apart, _ = real_memory
    app = {kind: next(r["peak_reserved_bytes"] for r in peak_rows(apart, run_id=run) if r["component"] == "APP")
           for kind, run in apart.execute("SELECT kind, run_id FROM source WHERE kind IN "
                                          "('rank_db', 'memory_record_csv')").fetchall()}
    assert app == {"rank_db": 2212081664, "memory_record_csv": 2212077568}


def test_real_rank_exported_twice_in_one_run_is_read_once(real_memory, realdata):
    _, together = real_memory
    assert together.execute("SELECT count(DISTINCT run_id) FROM source").fetchone() == (1,)
    got = {r["component"]: (r["samples"], r["peak_allocated_bytes"], r["peak_reserved_bytes"])
           for r in peak_rows(together)}
    assert got == raw_db_peaks(realdata)  # the db answers: its row counts, not the db's plus the text's
    curve = queries.get("memory_curve").run(together, {"rank_id": 0, "component": "PTA"})[1]
    assert sum(row[6] for row in curve) == raw_db_peaks(realdata)["PTA"][0]
