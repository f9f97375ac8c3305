"""The operator-profile queries (queries/operator/*.sql) on rows of migrations/0004."""

from __future__ import annotations

import pytest

from factories.warehouse_rows import (
    CodeLineFactory, CoreLoadFactory, InstructionFactory, MemoryUnitFactory, OpRunFactory, RooflineFactory,
    SourceFactory,
)


@pytest.fixture
def profile(rows):
    """The id of one operator profile's source (another profile holds decoys)."""
    source = SourceFactory(kind="op_profile", card="MatmulCustom_1", path="/runs/op/visualize_data.bin")
    decoy = SourceFactory(kind="op_profile")
    OpRunFactory(source_id=source["id"], name="MatmulCustom_1", block_dim=8, duration_us=12.5)
    OpRunFactory(source_id=decoy["id"], name="Other")
    return {"id": source["id"], "decoy": decoy["id"]}


def test_op_runs(run, profile):
    result = run("op_runs")
    assert [(r["source_id"], r["name"]) for r in result] == [(profile["id"], "MatmulCustom_1"), (profile["decoy"], "Other")]
    first = result[0]
    assert (first["card"], first["path"], first["soc"], first["block_dim"], first["duration_us"], first["dur"]) == (
        "MatmulCustom_1", "/runs/op/visualize_data.bin", "Ascend910B4", 8, 12.5, 12500)


def test_op_hot_lines(run, profile):
    source = profile["id"]
    for line, core, cycles in ((10, "core0.cubecore0", 100), (10, "core1.cubecore0", 300), (20, "core0.cubecore0", 500),
                               (30, "core1.cubecore0", 100)):
        CodeLineFactory(source_id=source, line=line, core=core, cycles=cycles, instructions_executed=cycles // 10)
    CodeLineFactory(source_id=profile["decoy"], line=99, cycles=10**6)
    result = run("op_hot_lines", source_id=source, limit=2)
    assert [(r["line"], r["cycles"], r["instructions_executed"], r["cores"]) for r in result] == [
        (20, 500, 50, 1), (10, 400, 40, 2)]
    assert [r["cycles_ratio"] for r in result] == pytest.approx([0.5, 0.4])
    one_core = run("op_hot_lines", source_id=source, core="core1.cubecore0")
    assert [(r["line"], r["cycles"]) for r in one_core] == [(10, 300), (30, 100)]


def test_op_hot_instructions(run, profile):
    source = profile["id"]
    InstructionFactory(source_id=source, address="0x10", pipe="MTE2", cycles=70, real_stall_cycles=5, core_index=0)
    InstructionFactory(source_id=source, address="0x10", pipe="MTE2", cycles=30, real_stall_cycles=1,
                       core="core1.cubecore0", core_index=1)
    InstructionFactory(source_id=source, address="0x20", pipe="CUBE", cycles=50, inner_line=12)
    InstructionFactory(source_id=profile["decoy"], address="0x30", cycles=10**6)
    result = run("op_hot_instructions", source_id=source)
    assert [(r["address"], r["pipe"], r["cycles"], r["real_stall_cycles"], r["inner_line"]) for r in result] == [
        ("0x10", "MTE2", 100, 6, 10), ("0x20", "CUBE", 50, 0, 12)]
    assert result[0]["cycles_ratio"] == pytest.approx(100 / 150)


def test_op_memory_units(run, profile):
    source = profile["id"]
    MemoryUnitFactory(source_id=source, block_id=0, memory_path="GM_TO_L1", request=10, bandwidth_gb_s=10.0,
                      peak_ratio=4.0)
    MemoryUnitFactory(source_id=source, block_id=1, memory_path="GM_TO_L1", request=30, bandwidth_gb_s=20.0,
                      peak_ratio=-1.0)
    MemoryUnitFactory(source_id=source, block_id=0, memory_path="L1_TO_L0A", request=5, bandwidth_gb_s=1.0,
                      peak_ratio=None)
    result = run("op_memory_units", source_id=source)
    assert result == [
        {"memory_path": "GM_TO_L1", "blocks": 2, "requests": 40, "avg_bandwidth_gb_s": 15.0,
         "max_bandwidth_gb_s": 20.0, "avg_bandwidth_bytes_per_s": 15e9, "max_bandwidth_bytes_per_s": 20 * 10**9,
         "max_peak_ratio": 4.0},
        {"memory_path": "L1_TO_L0A", "blocks": 1, "requests": 5, "avg_bandwidth_gb_s": 1.0,
         "max_bandwidth_gb_s": 1.0, "avg_bandwidth_bytes_per_s": 1e9, "max_bandwidth_bytes_per_s": 10**9,
         "max_peak_ratio": None},
    ]


def test_op_core_load(run, profile):
    source = profile["id"]
    for core, kind, sub, cycles in ((0, "cube", 0, 1000), (1, "cube", 0, 500), (0, "vector", 0, 200),
                                    (0, "vector", 1, 400)):
        CoreLoadFactory(source_id=source, core_id=core, subcore_type=kind, subcore_id=sub, cycles=cycles)
    result = run("op_core_load", source_id=source)
    assert [(r["core_id"], r["subcore_type"], r["subcore_id"], r["cycles_to_max"]) for r in result] == [
        (0, "cube", 0, 1.0), (0, "vector", 0, 0.5), (0, "vector", 1, 1.0), (1, "cube", 0, 0.5)]


def test_op_roofline(run, profile):
    source = profile["id"]
    # intensity 10: the GM roof gives 2 x 10 = 20 < 100 (memory-bound), the L2 roof 50 x 10 > 100 (compute-bound)
    RooflineFactory(source_id=source, line_index=0, bw=2.0, bw_name="GM", computility=100.0, point_x=10.0,
                    point_y=15.0)
    RooflineFactory(source_id=source, line_index=1, bw=50.0, bw_name="L2", computility=100.0, point_x=10.0,
                    point_y=15.0)
    result = run("op_roofline", source_id=source)
    assert [(r["bw_name"], r["attainable"], r["efficiency"], r["bound"]) for r in result] == [
        ("GM", 20.0, 0.75, "memory"), ("L2", 100.0, 0.15, "compute")]


def test_op_roofline_keeps_the_roofs_op_runs_counts(run, profile):
    """A line without a bandwidth or a compute roof has no ridge: neither query counts it; a profile
    without roofline rows has 0 roofs (the roofline page opens on one that has some)."""
    source = profile["id"]
    RooflineFactory(source_id=source, bw_name="GM", bw=2.0, computility=100.0)
    RooflineFactory(source_id=source, bw_name="L1", bw=0.0, computility=100.0)
    RooflineFactory(source_id=source, bw_name="UB", bw=4.0, computility=None)
    assert [r["bw_name"] for r in run("op_roofline", source_id=source)] == ["GM"]
    assert {r["source_id"]: r["roofs"] for r in run("op_runs")} == {source: 1, profile["decoy"]: 0}
