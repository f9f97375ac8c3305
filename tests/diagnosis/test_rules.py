"""Each rule fires on a cluster built to show its problem, with evidence at the planted rows,
and stays quiet on a healthy one."""

import json

import pytest

from factories.empty_warehouse import empty_warehouse_bytes
from tests.built_once import copy_of
from tests.diagnosis import cluster as synth
from tests.factories import warehouse_rows as rows
from warehouse import db, queries
from warehouse.analysis import findings

PROBLEM_TYPES = set(findings.RULES) - {"kernel_hotspot"}


def analysed(conn, **planted):
    built = synth.build(conn, **planted)
    findings.analyze(conn)
    return built


@pytest.fixture(scope="module")
def analysed_once(tmp_path_factory):
    """A cluster planted alike for several tests is built and analysed once per module (seconds):
    ``build(**planted)`` -> (its warehouse file, what was built). Tests take a copy (:func:`analysed_copy`)."""
    built = {}

    def build(**planted):
        key = repr(sorted(planted.items()))
        if key not in built:
            path = tmp_path_factory.mktemp("analysed") / "warehouse.db"
            path.write_bytes(empty_warehouse_bytes())
            conn = db.connect(path)
            built[key] = (path, analysed(conn, **planted))
            conn.close()
        return built[key]

    return build


@pytest.fixture
def analysed_copy(analysed_once, warehouse_path):
    """``copy(**planted)`` -> (a connection to this test's copy of the analysed cluster at
    ``warehouse_path``, what was built): the test may write it."""
    opened = []

    def copy(**planted):
        path, built = analysed_once(**planted)
        opened.append(db.connect(copy_of(path, warehouse_path)))
        return opened[-1], built

    yield copy
    for conn in opened:
        conn.close()


def found(conn, finding_type=None):
    sql = ("SELECT id, finding_type, severity, confidence, run_id, rank_id, step_id, subject, message, numbers "
           "FROM finding WHERE ? IS NULL OR finding_type = ? ORDER BY id")
    columns = ("id", "finding_type", "severity", "confidence", "run_id", "rank_id", "step_id", "subject", "message",
               "numbers")
    return [dict(zip(columns, row)) for row in conn.execute(sql, (finding_type, finding_type))]


def evidence(conn, finding_id):
    sql = ("SELECT input_source_id, table_name, source_row, slice_id, kernel_id, note FROM finding_evidence "
           "WHERE finding_id = ? ORDER BY position")
    columns = ("source_id", "table_name", "source_row", "slice_id", "kernel_id", "note")
    return [dict(zip(columns, row)) for row in conn.execute(sql, (finding_id,))]


def test_every_rule_file_is_a_rule_with_the_output_contract():
    files = sorted(queries.QUERIES_DIR.glob("*/rule_*.sql"))
    assert [f"rule_{name}" for name in findings.RULES] == [path.stem for path in files]
    assert "host_tiling_not_sunk" in findings.RULES and "slow_rank_suspected" in findings.RULES
    for path in files:
        declared = tuple(column.name for column in queries.get(path.stem).columns)
        assert declared == findings.RULE_COLUMNS, path
        assert "-- include: _rule_output" in path.read_text(encoding="utf-8"), path  # the answer written once
        assert set(findings.FINDING_COLUMNS) | set(findings.EVIDENCE_COLUMNS) | {"finding_key"} == set(declared)


def test_a_healthy_cluster_has_no_problem_findings(warehouse_db):
    analysed(warehouse_db)
    assert {f["finding_type"] for f in found(warehouse_db)} == {"kernel_hotspot"}
    assert {f["severity"] for f in found(warehouse_db)} == {"low"}


def test_slow_rank_and_slow_collective_are_the_only_high_findings(warehouse_db):
    analysed(warehouse_db, slow_rank=3, slow_collective=(2, 5))
    high = [(f["finding_type"], f["rank_id"], f["step_id"]) for f in found(warehouse_db) if f["severity"] == "high"]
    # one finding per rule and subject: the slow rank's two steps are one finding, on its worst step
    assert high == [("communication_collective_slow", 5, 2), ("slow_rank_suspected", 3, 1)]


def test_slow_rank_numbers_and_evidence_point_at_its_kernels(analysed_copy):
    conn, built = analysed_copy(slow_rank=3)
    slow = found(conn, "slow_rank_suspected")
    assert [(f["run_id"], f["rank_id"], f["step_id"], f["confidence"]) for f in slow] == [(built.run_id, 3, 1, "high")]
    assert slow[0]["message"].startswith("In 2 of 2 steps (worst step 1: ratio 1.5): Rank 3 computes")
    # no profiler's Computing in the cluster: the rank's compute kernel time is compared
    assert "the other ranks in step 1 (2.400 ms against 1.600 ms, compute kernel time)" in slow[0]["message"]
    # a run that does not say its parallel groups: every other rank is a peer, and the finding says so
    assert slow[0]["message"].endswith("Compared with every rank: the run does not say its parallel groups.")
    numbers = json.loads(slow[0]["numbers"])
    assert numbers == {"compute_ns": 2_400_000, "median_ns": 1_600_000.0, "measured_by": "kernels", "ratio": 1.5,
                       "collectives": 1, "last_starts": 1, "peers": 7, "compared_with": "every rank",
                       "steps": 2, "run_steps": 2, "worst_step": 1, "worst_by": "ratio", "step_ids": [1, 2]}
    # the worst step's five kernels, then the first of step 2's
    rows_ = evidence(conn, slow[0]["id"])
    planted = {k["id"]: k for k in built.kernels[3, 1] + built.kernels[3, 2]}
    assert len(rows_) == 6 and {r["kernel_id"] for r in rows_} <= set(planted)
    assert [r["note"][:7] for r in rows_] == ["step 1:"] * 5 + ["step 2:"]
    for row in rows_:
        kernel = planted[row["kernel_id"]]
        assert (row["source_id"], row["source_row"], row["table_name"]) == (built.sources[3], kernel["source_row"],
                                                                              "kernel")
    # the arrival skew it causes is a low-severity collective finding that names it, both steps in one
    waits = found(conn, "communication_collective_slow")
    assert [(f["severity"], f["rank_id"], json.loads(f["numbers"])["step_ids"]) for f in waits] == [("low", 3, [1, 2])]


def test_slow_collective_names_the_rank_and_points_at_every_rank_s_row(warehouse_db):
    built = analysed(warehouse_db, slow_collective=(2, 5))
    [slow] = found(warehouse_db, "communication_collective_slow")
    assert (slow["severity"], slow["confidence"], slow["rank_id"], slow["step_id"], slow["subject"]) == (
        "high", "high", 5, 2, "hcom_allReduce__2_0_1")
    numbers = json.loads(slow["numbers"])
    assert (numbers["min_ns"], numbers["max_ns"], numbers["end_spread_ns"]) == (200_000, 1_200_000, 1_000_000)
    assert numbers["cause_wait_share"] == pytest.approx(10_000 / 1_200_000, abs=1e-4)
    assert (numbers["cause"], numbers["affected_ranks"], numbers["most_affected_rank_id"]) == ("slow_transfer", 7, 0)
    rows_ = evidence(warehouse_db, slow["id"])
    assert len(rows_) == 8
    first = built.ops[5, 2]
    assert (rows_[0]["table_name"], rows_[0]["source_id"], rows_[0]["source_row"]) == (
        "communication_op", built.sources[5], first["source_row"])
    assert rows_[0]["note"] == ("rank 5: 1.200 ms, started 0 ns after the first rank (the cause: it ends last), "
                                "Notify Wait 0.8% of it")
    assert {r["source_row"] for r in rows_} == {built.ops[r, 2]["source_row"] for r in range(8)}
    assert {f["finding_type"] for f in found(warehouse_db)} == {"communication_collective_slow", "kernel_hotspot"}


def test_host_gaps_before_a_tiling_dependent_operator_advise_tiling_sink(warehouse_db):
    built = analysed(warehouse_db, host_gap_rank=2)
    gaps = found(warehouse_db, "host_bound_gaps")
    assert [(f["rank_id"], f["step_id"], f["severity"], f["confidence"]) for f in gaps] == [(2, 1, "medium", "high")]
    # advice to enable it is host_tiling_not_sunk's, which checks the shapes are static (seed 002)
    assert "where their shapes are static, tiling sink moves that to the device" in gaps[0]["message"]
    assert "enable tiling sink" not in gaps[0]["message"]
    numbers = json.loads(gaps[0]["numbers"])
    assert (numbers["host_gaps"], numbers["host_gap_ns"], numbers["tiling_gaps"], numbers["share"]) == (
        2, 2 * (synth.GAP_NS + synth.SPACING_NS), 2, 0.101)
    rows_ = evidence(warehouse_db, gaps[0]["id"])
    attention = [k for k in built.kernels[2, 1] if k["name"] == "FusedInferAttentionScore"]
    launches = [c for c in built.launches[2, 1] if c["name"] == "aclnnFusedInferAttentionScore"]
    attention_2 = [k for k in built.kernels[2, 2] if k["name"] == "FusedInferAttentionScore"]
    assert [(r["table_name"], r["source_row"]) for r in rows_] == [  # step 2's first row follows the worst step's
        ("kernel", attention[0]["source_row"]), ("cann_api", launches[0]["source_row"]),
        ("kernel", attention[1]["source_row"]), ("cann_api", launches[1]["source_row"]),
        ("kernel", attention_2[0]["source_row"])]
    assert rows_[0]["kernel_id"] == attention[0]["id"]
    assert PROBLEM_TYPES & {f["finding_type"] for f in found(warehouse_db)} == {
        "host_bound_gaps", "communication_collective_slow"}  # rank 2 arrives late at the allreduce


def test_dummy_rank_is_reported_with_the_kernels_it_never_ran(warehouse_db):
    built = analysed(warehouse_db, dummy_rank=7)
    dummy = found(warehouse_db, "reduced_work_or_dummy_rank")
    assert [(f["rank_id"], f["step_id"], f["confidence"]) for f in dummy] == [(7, 1, "high")]
    assert json.loads(dummy[0]["numbers"]) == {"kernels": 4, "median_kernels": 16.0, "missing_names": 6, "steps": 2,
                                               "run_steps": 2, "worst_step": 1, "worst_by": "kernels",
                                               "step_ids": [1, 2]}
    rows_ = evidence(warehouse_db, dummy[0]["id"])
    names = {k["id"]: k["name"] for k in built.kernels[0, 1] + built.kernels[0, 2]}
    assert [names[r["kernel_id"]] for r in rows_] == ["MatMul_qkv", "FusedInferAttentionScore", "MatMul_o",
                                                       "MatMul_up", "Swiglu", "MatMul_qkv"]
    assert not found(warehouse_db, "slow_rank_suspected")


def test_dp_imbalance_shows_the_shapes_that_differ(analysed_copy):
    conn, built = analysed_copy(dp_rank=4)
    # its subject names its step ('step 1'): the two steps merge into one finding about the steps
    [first] = found(conn, "dp_workload_imbalance")
    assert (first["rank_id"], first["step_id"], first["subject"]) == (4, 1, "steps")
    numbers = json.loads(first["numbers"])
    assert (numbers["min_ns"], numbers["max_ns"], numbers["shaped_names"]) == (1_600_000, 1_800_000, 4)
    assert (numbers["steps"], numbers["worst_step"], numbers["worst_by"]) == (2, 1, "spread")
    rows_ = evidence(conn, first["id"])
    # each differing (name, shape) once, by name then shape: rank 0 runs the usual shape, rank 4 the other
    # (the worst step's), then step 2's first
    kernels = {k["id"]: (k["name"], rank, step) for rank in (0, 4) for step in (1, 2) for k in built.kernels[rank, step]}
    assert [kernels[r["kernel_id"]] for r in rows_] == [
        ("MatMul_down", 0, 1), ("MatMul_down", 4, 1), ("MatMul_o", 0, 1), ("MatMul_o", 4, 1), ("MatMul_qkv", 0, 1),
        ("MatMul_qkv", 4, 1), ("MatMul_down", 0, 2)]
    assert rows_[1]["note"] == "step 1: MatMul_down on rank 4 with shapes 4096,1024;1024,1024: 125.000 us"
    assert not found(conn, "slow_rank_suspected")


def test_ep_imbalance_names_the_overloaded_rank_and_points_at_its_grouped_matmuls(warehouse_db):
    built = analysed(warehouse_db, ep_rank=5)
    imbalance = found(warehouse_db, "ep_load_imbalance_suspected")
    assert [(f["run_id"], f["rank_id"], f["step_id"], f["severity"], f["confidence"]) for f in imbalance] == [
        (built.run_id, 5, 1, "high", "high")]
    assert imbalance[0]["message"].startswith(
        "In 2 of 2 steps (worst step 1: ratio 1.75): Rank 5 spends 1.75x the median of the ranks in step 1 in its 2 expert kernels (350.000 us against "
        "200.000 us) and 1.0x the median in its other compute; 2 of its expert kernels run on input shapes no "
        "other rank runs: more tokens are routed to its experts")
    assert json.loads(imbalance[0]["numbers"]) == {
        "expert_ns": 350_000, "median_ns": 200_000.0, "ratio": 1.75, "other_ns": 1_600_000,
        "other_median_ns": 1_600_000.0, "other_ratio": 1.0, "expert_kernels": 2, "own_shape_kernels": 2,
        "compared_with": "every rank", "steps": 2, "run_steps": 2, "worst_step": 1, "worst_by": "ratio",
        "step_ids": [1, 2]}
    # the evidence is rank 5's two grouped matmuls of the worst step, as written (its input, its rows), then
    # the first of step 2's
    matmuls = [k for k in built.kernels[5, 1] if k["op_type"] == "GroupedMatmul"]
    matmuls_2 = [k for k in built.kernels[5, 2] if k["op_type"] == "GroupedMatmul"]
    rows_ = evidence(warehouse_db, imbalance[0]["id"])
    assert [(r["table_name"], r["source_id"], r["source_row"], r["kernel_id"]) for r in rows_] == [
        ("kernel", built.sources[5], k["source_row"], k["id"]) for k in matmuls + matmuls_2[:1]]
    assert rows_[0]["note"] == ("step 1: GroupedMatmul_up ran 175.000 us on input shapes 3584,1024;1024,1024; its mean "
                                "over the ranks in step 1 is 109.375 us")
    # the other ranks wait in their combine: every rank computes as long, so no rank is slow and no split uneven
    assert PROBLEM_TYPES & {f["finding_type"] for f in found(warehouse_db)} == {"ep_load_imbalance_suspected"}


def test_a_balanced_expert_parallel_run_has_no_problem_findings(warehouse_db):
    analysed(warehouse_db, moe=True)
    assert PROBLEM_TYPES & {f["finding_type"] for f in found(warehouse_db)} == set()


def test_a_slow_rank_of_an_moe_run_is_an_ep_suspect_of_low_confidence(warehouse_db):
    analysed(warehouse_db, moe=True, slow_rank=3)
    # its other compute is 1.5x too: routing is not the only explanation, the message says to look at the slow rank
    imbalance = found(warehouse_db, "ep_load_imbalance_suspected")
    assert [(f["rank_id"], f["step_id"], f["severity"], f["confidence"]) for f in imbalance] == [(3, 1, "high", "low")]
    assert "look at slow_rank_suspected first" in imbalance[0]["message"]
    assert [(f["rank_id"], f["step_id"]) for f in found(warehouse_db, "slow_rank_suspected")] == [(3, 1)]


def test_ep_imbalance_on_the_shapes_of_the_other_ranks_is_of_medium_confidence(warehouse_db):
    # padded expert inputs: every rank's grouped matmul has the same shapes, rank 0's runs 3x as long
    with rows.bound(warehouse_db):
        for rank, dur in ((0, 300_000), (1, 100_000), (2, 100_000)):
            rows.StepFactory(rank_id=rank, step_id=1, start_ns=0, end_ns=synth.STEP_NS)
            rows.KernelFactory(rank_id=rank, ts=1_000, dur=100_000, name="MatMul_qkv", op_class="aic",
                               category="compute.matmul")
            rows.KernelFactory(rank_id=rank, ts=200_000, dur=dur, name="GroupedMatmul", op_type="GroupedMatmul",
                               op_class="mix_cv", category="moe.grouped_matmul", input_shapes="4096,1024;1024,1024")
    findings.analyze(warehouse_db)
    [imbalance] = found(warehouse_db, "ep_load_imbalance_suspected")
    assert (imbalance["rank_id"], imbalance["step_id"], imbalance["severity"], imbalance["confidence"]) == (
        0, 1, "high", "medium")
    assert "tokens are inferred from the time alone" in imbalance["message"]
    assert json.loads(imbalance["numbers"])["own_shape_kernels"] == 0


def test_memory_peak_near_capacity_points_at_the_peak_sample(warehouse_db):
    built = synth.build(warehouse_db, memory_rank=1)
    base = built.steps[0] * synth.STEP_NS
    with rows.bound(warehouse_db):
        # the whole process (APP) reserves more than the framework (PTA): a rank with PTA records is judged on them
        rows.MemoryRecordFactory(rank_id=1, source_id=built.sources[1], component="APP", ts=base + 1_500_000,
                                 total_reserved_bytes=63 * synth.GIB, total_allocated_bytes=None)
        # a rank with APP records only is judged on APP
        app_only = rows.MemoryRecordFactory(rank_id=8, component="APP", ts=base, total_allocated_bytes=None,
                                            total_reserved_bytes=62 * synth.GIB)
    findings.analyze(warehouse_db)
    peak, app = found(warehouse_db, "memory_peak_near_capacity")
    assert (peak["rank_id"], peak["severity"], peak["step_id"]) == (1, "medium", 1)
    assert json.loads(peak["numbers"])["ratio"] == 0.9375
    assert json.loads(peak["numbers"])["component"] == "PTA"
    assert peak["message"].startswith("Rank 1 reserves 60.0 GiB at its peak (PTA), 93.8% of 64.0 GiB")
    rows_ = evidence(warehouse_db, peak["id"])
    assert [(r["table_name"], r["source_row"]) for r in rows_] == [
        ("memory_record", built.peaks[1]["source_row"]), ("op_memory", built.allocations[1]["source_row"])]
    assert rows_[0]["note"] == "peak sample (PTA): 60.0 GiB reserved, 59.0 GiB allocated"
    assert rows_[1]["note"] == "aten::empty holds 8.0 GiB at the peak"
    assert (app["rank_id"], app["severity"], app["step_id"]) == (8, "high", None)
    assert json.loads(app["numbers"])["component"] == "APP"
    assert [(r["table_name"], r["source_row"], r["note"]) for r in evidence(warehouse_db, app["id"])] == [
        ("memory_record", app_only["source_row"], "peak sample (APP): 62.0 GiB reserved")]


def test_hotspots_name_the_bound_family_and_the_longest_run(analysed_copy):
    conn, built = analysed_copy(slow_rank=3)
    hot = found(conn, "kernel_hotspot")
    assert hot[0]["subject"] == "RmsNorm" and "aiv_mte" in hot[0]["message"]
    [row] = evidence(conn, hot[0]["id"])
    longest = next(k for k in built.kernels[3, 1] if k["name"] == "RmsNorm")
    assert row["kernel_id"] == longest["id"] and row["note"] == "longest run: 150.000 us on rank 3"


def op_profile(conn, hit_ratios, pipe_ratios, core_hit=None):
    """An operator profile's L2 and pipe rows (seed 000 blocks 0x08 and 0x0C)."""
    with rows.bound(conn):
        source = rows.SourceFactory(kind="op_profile", path="/ops/matmul/visualize_data.bin")
        rows.OpRunFactory(source_id=source["id"], name="MatmulCustom")
        for core, hit in enumerate(hit_ratios):
            rows.insert("l2_cache", {"source_id": source["id"], "block_offset": 4096, "block_id": core,
                                     "source_row": core, "op_type": "cube", "hit": hit, "miss": 100 - hit,
                                     "total_request": 100, "hit_ratio": hit})
            rows.insert("pipe_ratio", {"source_id": source["id"], "block_offset": 4096, "block_id": core,
                                       "pipe": "Cube", "ratio": pipe_ratios[core]})
        if core_hit is not None:
            rows.CoreLoadFactory(source_id=source["id"], block_offset=8192, l2cache_hit_rate=core_hit)
    return source["id"]


def test_operator_profile_advice_is_filled_for_low_l2_hit_and_idle_compute(warehouse_db):
    source_id = op_profile(warehouse_db, [40, 90, 45], [10, 20, 30], core_hit=50)
    findings.analyze(warehouse_db)
    [l2] = found(warehouse_db, "op_low_l2_hit")
    # the run of an operator profile is that of its input
    run_id = warehouse_db.execute("SELECT run_id FROM source WHERE id = ?", (source_id,)).fetchone()[0]
    assert (l2["subject"], l2["confidence"], l2["run_id"]) == ("MatmulCustom", "high", run_id)
    assert json.loads(l2["numbers"]) == {"low_cores": 3, "cores": 4, "min_hit_pct": 40.0, "threshold_pct": 60.0,
                                         "input_advice": 0}
    assert [(r["table_name"], r["source_row"], r["source_id"]) for r in evidence(warehouse_db, l2["id"])] == [
        ("l2_cache", 4096, source_id), ("l2_cache", 4096, source_id), ("core_load", 8192, source_id)]
    [idle] = found(warehouse_db, "op_low_compute_ratio")
    assert (json.loads(idle["numbers"])["mean_busy_pct"], idle["run_id"]) == (20.0, run_id)
    assert [r["note"] for r in evidence(warehouse_db, idle["id"])] == [
        "core 0 Cube busy 10.0%", "core 1 Cube busy 20.0%", "core 2 Cube busy 30.0%"]


def test_a_healthy_operator_profile_gets_no_advice(warehouse_db):
    op_profile(warehouse_db, [90, 95], [80, 85], core_hit=92)
    findings.analyze(warehouse_db)
    assert found(warehouse_db) == []


def test_analyze_again_replaces_the_previous_findings(analysed_copy):
    conn, _ = analysed_copy(slow_rank=3)
    before = [(f["finding_type"], f["rank_id"], f["message"]) for f in found(conn)]
    evidence_rows = conn.execute("SELECT COUNT(*) FROM finding_evidence").fetchone()[0]
    findings.analyze(conn)
    assert [(f["finding_type"], f["rank_id"], f["message"]) for f in found(conn)] == before
    assert conn.execute("SELECT COUNT(*) FROM finding_evidence").fetchone()[0] == evidence_rows
    assert conn.execute("SELECT COUNT(*), SUM(finding_count) FROM analysis_run").fetchone() == (
        1, len(before))


def test_rule_thresholds_are_parameters(analysed_copy):
    conn, _ = analysed_copy(dp_rank=4)
    assert findings.evaluate(conn, "slow_rank_suspected") == []
    [lower] = findings.evaluate(conn, "slow_rank_suspected", {"threshold": "1.1"})[:1]
    assert (lower.values["rank_id"], lower.values["severity"]) == (4, "medium")


def test_without_steps_whole_captures_are_compared_with_low_confidence(warehouse_db):
    with rows.bound(warehouse_db):
        for rank, dur in ((0, 300), (1, 100), (2, 100), (-1, 5_000)):
            for _ in range(4):
                rows.KernelFactory(rank_id=rank, dur=dur, name="MatMul_1", op_class="aic")
        rows.KernelFactory(rank_id=1, dur=90_000, name="hcom_allReduce__7_0_1", op_class="communication")
    findings.analyze(warehouse_db)
    [slow] = found(warehouse_db, "slow_rank_suspected")
    # rank -1 (unknown) is no rank to compare: the median is rank 1's and 2's 400 ns
    assert (slow["rank_id"], slow["step_id"], slow["severity"], slow["confidence"]) == (0, -1, "medium", "low")
    # step -1 is no step: the message speaks of the whole capture
    assert "the median of the other ranks in the whole capture" in slow["message"]
    assert "step -1" not in slow["message"]
    assert json.loads(slow["numbers"])["median_ns"] == 400.0
    # hot spots are compute kernels: the allreduce, the longest kernel by far, is not one
    assert [f["subject"] for f in found(warehouse_db, "kernel_hotspot")] == ["MatMul_1"]


def test_aicpu_operators_gc_pauses_and_host_syncs(warehouse_db):
    built = synth.build(warehouse_db)
    step = synth.STEP_NS
    with rows.bound(warehouse_db):
        aicpu = [rows.KernelFactory(rank_id=rank, source_id=built.sources[rank], name="NonZero", op_type="NonZero",
                                    op_class="aicpu", ts=s * step + 5_000_000 + rank, dur=200_000 + rank,
                                    input_dtypes="INT64")
                 for rank in range(8) for s in built.steps]
        pauses = [rows.GcEventFactory(rank_id=1, source_id=built.sources[1], ts=step + 6_000_000 + i * 1_000_000,
                                      dur=dur) for i, dur in enumerate((300_000, 200_000))]
        syncs = [rows.CannApiFactory(rank_id=0, source_id=built.sources[0], ts=2 * step + 7_000_000 + i * 100_000,
                                     dur=50_000 + i, name="aclrtSynchronizeStreamWithTimeout") for i in range(3)]
    findings.analyze(warehouse_db)
    [cpu] = found(warehouse_db, "aicpu_operators")
    assert (cpu["subject"], cpu["severity"]) == ("NonZero", "medium")
    assert json.loads(cpu["numbers"])["runs"] == 16
    # longest first, ties by kernel id: rank 7's two runs, then rank 6's first
    assert [r["kernel_id"] for r in evidence(warehouse_db, cpu["id"])] == [aicpu[14]["id"], aicpu[15]["id"],
                                                                            aicpu[12]["id"]]
    assert evidence(warehouse_db, cpu["id"])[0]["note"] == "run of 200.007 us on rank 7 with input dtypes INT64"
    [gc] = found(warehouse_db, "gc_pauses")
    assert (gc["rank_id"], gc["step_id"], gc["severity"]) == (1, 1, "medium")
    assert json.loads(gc["numbers"]) == {"pauses": 2, "gc_ns": 500_000, "step_ns": step, "share": 0.05}
    assert [r["source_row"] for r in evidence(warehouse_db, gc["id"])] == [p["source_row"] for p in pauses]
    [sync] = found(warehouse_db, "host_device_synchronization")
    assert (sync["rank_id"], sync["step_id"], json.loads(sync["numbers"])) == (
        0, 2, {"calls": 3, "blocked_ns": 150_003})
    assert [r["source_row"] for r in evidence(warehouse_db, sync["id"])] == [c["source_row"] for c in syncs[::-1]]


def test_two_runs_in_one_warehouse_are_never_added_together(warehouse_db):
    # the same cluster twice, on the same clock with the same ranks and kernel names: only the run differs
    healthy = synth.build(warehouse_db, run="healthy")
    slow = synth.build(warehouse_db, run="slow", slow_rank=3)
    findings.analyze(warehouse_db)
    problems = [(f["run_id"], f["finding_type"], f["rank_id"], f["step_id"], f["severity"])
                for f in found(warehouse_db) if f["finding_type"] != "kernel_hotspot"]
    assert problems == [  # in the order of the rules (their file names), one per rule and subject
        (slow.run_id, "communication_collective_slow", 3, 1, "low"),
        # the slow run is slower than the run before it (2.78 ms against 1.98 ms a step): a regression of it alone
        (slow.run_id, "run_regression", None, None, "medium"),
        (slow.run_id, "slow_rank_suspected", 3, 1, "high")]
    first = found(warehouse_db, "slow_rank_suspected")[0]
    # the run's own median, collectives and steps: rank 3 of the healthy run is not added in
    assert json.loads(first["numbers"]) == {"compute_ns": 2_400_000, "median_ns": 1_600_000.0,
                                            "measured_by": "kernels", "ratio": 1.5, "collectives": 1,
                                            "last_starts": 1, "peers": 7, "compared_with": "every rank", "steps": 2,
                                            "run_steps": 2, "worst_step": 1, "worst_by": "ratio", "step_ids": [1, 2]}
    assert {r["kernel_id"] for r in evidence(warehouse_db, first["id"])} <= {
        k["id"] for k in slow.kernels[3, 1] + slow.kernels[3, 2]}
    # the collective is matched across the eight ranks of one run, not the sixteen of both
    late = found(warehouse_db, "communication_collective_slow")[0]
    assert json.loads(late["numbers"])["ranks"] == 8
    assert {r["source_id"] for r in evidence(warehouse_db, late["id"])} == set(slow.sources.values())
    # hot spots per run: each run's RmsNorm ran 64 times on 8 ranks, the slow run's longest for 150 us
    hot = {(f["run_id"], f["subject"]): f for f in found(warehouse_db, "kernel_hotspot")}
    assert len(hot) == 10
    for built, longest in ((healthy, "100.000 us on rank 0"), (slow, "150.000 us on rank 3")):
        norm = hot[built.run_id, "RmsNorm"]
        assert (json.loads(norm["numbers"])["runs"], json.loads(norm["numbers"])["ranks"]) == (64, 8)
        assert evidence(warehouse_db, norm["id"])[0]["note"] == f"longest run: {longest}"
    # a rule answers one run when asked
    assert findings.evaluate(warehouse_db, "slow_rank_suspected", {"run_id": healthy.run_id}) == []
    assert [f.values["run_id"] for f in findings.evaluate(warehouse_db, "slow_rank_suspected",
                                                           {"run_id": slow.run_id})] == [slow.run_id] * 2


def answers(conn):
    """Every finding with its evidence, without the ids and rows that differ from one warehouse to another."""
    return [((f["finding_type"], f["run_id"], f["rank_id"], f["step_id"], f["severity"], f["confidence"],
              f["message"], f["numbers"]),
             [(r["table_name"], r["note"]) for r in evidence(conn, f["id"])])
            for f in found(conn)]


def test_a_rank_db_and_the_text_export_of_the_same_rank_give_each_finding_once(warehouse_db, tmp_path):
    planted = dict(slow_rank=3, slow_collective=(2, 5), host_gap_rank=6)
    both = synth.build(warehouse_db, text_export=True, **planted)
    findings.analyze(warehouse_db)
    alone = db.connect(tmp_path / "rank_dbs_only.db")
    synth.build(alone, **planted)
    findings.analyze(alone)
    # the text export of the same capture changes nothing: the rank db answers (fact_precedence)
    assert answers(warehouse_db) == answers(alone)
    alone.close()
    collective = [f for f in found(warehouse_db, "communication_collective_slow") if f["severity"] == "high"]
    assert [(f["rank_id"], f["step_id"], json.loads(f["numbers"])["ranks"]) for f in collective] == [(5, 2, 8)]
    rows_ = evidence(warehouse_db, collective[0]["id"])
    assert len(rows_) == 8 and {r["source_id"] for r in rows_} == set(both.sources.values())
    assert {r["source_row"] for r in rows_} == {both.ops[rank, 2]["source_row"] for rank in range(8)}
    assert [(f["rank_id"], f["step_id"]) for f in found(warehouse_db, "slow_rank_suspected")] == [(3, 1)]
    assert [(f["rank_id"], f["step_id"]) for f in found(warehouse_db, "host_bound_gaps")] == [(6, 1)]
    text_inputs = {s for sources in both.text_sources.values() for s in sources.values()}
    used = {r[0] for r in warehouse_db.execute("SELECT input_source_id FROM finding_evidence")}
    assert used and not used & text_inputs


def test_the_text_export_alone_answers_like_the_rank_db(warehouse_db):
    # kernel_details.csv lists the allreduce as an HCCL kernel row: the collective rules read it like COMMUNICATION_OP
    built = synth.build(warehouse_db, rank_db=False, text_export=True, slow_rank=3, slow_collective=(2, 5))
    findings.analyze(warehouse_db)
    high = [(f["finding_type"], f["run_id"], f["rank_id"], f["step_id"], f["confidence"])
            for f in found(warehouse_db) if f["severity"] == "high"]
    assert high == [# no Notify Wait tasks without a rank db: the wait share is unknown, confidence medium
                    ("communication_collective_slow", built.run_id, 5, 2, "medium"),
                    ("slow_rank_suspected", built.run_id, 3, 1, "high")]
    slow = [f for f in found(warehouse_db, "communication_collective_slow") if f["severity"] == "high"][0]
    numbers = json.loads(slow["numbers"])
    assert (numbers["ranks"], numbers["min_ns"], numbers["max_ns"], numbers["cause_wait_share"]) == (
        8, 200_000, 2_000_000, None)  # rank 3 arrives 800 us late, rank 5 ends 1 ms late
    rows_ = evidence(warehouse_db, slow["id"])
    assert [(r["table_name"], r["kernel_id"]) for r in rows_[:1]] == [("kernel", built.ops[5, 2]["id"])]
    assert {r["kernel_id"] for r in rows_} == {built.ops[rank, 2]["id"] for rank in range(8)}


def test_an_analysis_waiting_on_another_writer_fails_clearly_and_keeps_the_findings(analysed_copy, warehouse_path,
                                                                                    monkeypatch):
    conn, _ = analysed_copy(slow_rank=3)
    before = found(conn)
    monkeypatch.setattr(db, "BUSY_TIMEOUT_S", 0.05)
    other = db.connect(warehouse_path)
    other.execute("BEGIN IMMEDIATE")
    conn.execute("PRAGMA busy_timeout = 50")
    try:
        with pytest.raises(db.WarehouseError) as caught:
            findings.analyze(conn)
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert str(caught.value) == ("warehouse analyze: the warehouse is busy: another process held its write lock for "
                                 "0.05 s (database is locked); nothing was written, run warehouse analyze again")
    assert found(conn) == before and not conn.in_transaction
