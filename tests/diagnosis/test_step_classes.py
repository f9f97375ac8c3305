"""Shape-strict step classes (seed 004 section 7), derived steps and matmul-anchored layers, from text
exports ingested and analysed: exact classes (the digest recomputed here from the seed's recipe),
member steps, wall statistics and bound family."""

import json
import math
from hashlib import blake2b

from tests.diagnosis.text_run import GAP_US, HEAD_US, T0_US, K, Step, analysed, layer, matmul, norm, query, write_rank
from tests.diagnosis import cluster as synth
from warehouse.analysis import findings
from warehouse.analysis.step_classes import Kernel, split_at_selection
from warehouse.model.classify import load_rules
from warehouse.cli import cli

FIA = K("FusedInferAttentionScore", core="MIX_AIC", pipeline={"aiv_vec": 10})
PREFILL = "2048,1024;1024,1024"
DECODE = "8,1024;1024,1024"
GQA = "2x dense[attention:gqa_or_mha+ffn]"


def digest(payload) -> str:
    return blake2b(json.dumps(payload).encode(), digest_size=8).hexdigest()


def class_of(structure: str, kernels) -> str:
    """The seed's class: step_ + BLAKE2b-8 of [structure, scope label, (name, shape) pairs in order]."""
    return "step_" + digest([structure, "step", [[k.name, k.shapes] for k in kernels]])


def nearest_rank(values, share) -> int:
    ordered = sorted(values)
    return ordered[math.ceil(share * len(ordered)) - 1]


def members(conn) -> dict[str, list[int]]:
    classes: dict[str, list[int]] = {}
    for step_class, step_id in conn.execute("SELECT step_class, step_id FROM step_class ORDER BY step_id"):
        classes.setdefault(step_class, []).append(step_id)
    return classes


def test_prefill_and_decode_steps_are_two_classes_with_exact_statistics(runner, tmp_path, warehouse_path):
    """Steps 1-2 prefill (2048 rows, 40 and 44 ms), steps 3-7 decode (8 rows, 10 to 30 ms). Decode step 3's
    matmuls are heavy (cube 50 us each), steps 4-7 vector-heavier (cube 2 us against 2 x 10 us of vector):
    four of five decode steps lean vector, the class's summed pipeline is cube."""
    prefill = layer((FIA,), PREFILL, mac=30) * 2
    decode_heavy, decode = layer((FIA,), DECODE, mac=50) * 2, layer((FIA,), DECODE, mac=2) * 2
    walls_us = [40_000, 44_000, 10_000, 12_000, 11_000, 13_000, 30_000]
    kernels = [prefill, prefill, decode_heavy, decode, decode, decode, decode]
    write_rank(tmp_path / "run", [Step(wall, step) for wall, step in zip(walls_us, kernels)])
    conn = analysed(runner, tmp_path / "run", warehouse_path)
    prefill_class, decode_class = class_of(GQA, prefill), class_of(GQA, decode)
    assert members(conn) == {prefill_class: [1, 2], decode_class: [3, 4, 5, 6, 7]}
    rows = query(conn, "step_classes")
    # heaviest first: prefill 84 ms, decode 76 ms
    assert [(r["step_class"], r["structure"], r["step_count"], r["kernel_count"], r["is_derived"], r["first_step_id"])
            for r in rows] == [(prefill_class, GQA, 2, 16, 0, 1), (decode_class, GQA, 5, 16, 0, 3)]
    for row, walls in zip(rows, (walls_us[:2], walls_us[2:])):
        walls_ns = [wall * 1000 for wall in walls]
        assert (row["wall_ns_mean"], row["wall_ns_sum"], row["wall_ns_p50"], row["wall_ns_p90"], row["wall_ns_max"]) == (
            sum(walls_ns) / len(walls_ns), sum(walls_ns), nearest_rank(walls_ns, 0.5), nearest_rank(walls_ns, 0.9),
            max(walls_ns))
    assert [(r["wall_ns_p50"], r["wall_ns_p90"]) for r in rows] == [(40_000_000, 44_000_000), (12_000_000, 30_000_000)]
    # cube: 8 matmuls a step; vector: 2 attention kernels a step at 10 us
    assert [(r["cube_ns"], r["vector_ns"], r["bound_family"]) for r in rows] == [
        (2 * 8 * 30_000, 2 * 2 * 10_000, "cube"), (8 * 50_000 + 4 * 8 * 2_000, 5 * 2 * 10_000, "cube")]
    votes = conn.execute("SELECT step_id, cube_ns > vector_ns FROM step_class WHERE step_id >= 3 ORDER BY step_id")
    assert [lean for _, lean in votes] == [1, 0, 0, 0, 0]  # a vote of the steps would have said vector
    # the rank filter, and a rank without steps
    assert query(conn, "step_classes", rank_id=0) == rows and query(conn, "step_classes", rank_id=1) == []


def test_transposed_shapes_are_two_classes(runner, tmp_path, warehouse_path):
    """(3,4) and (4,3): same kernel, same element count, two classes; a second (3,4) step joins the first."""
    steps = [Step(1_000, (matmul("3,4"),)), Step(1_000, (matmul("4,3"),)), Step(1_000, (matmul("3,4"),))]
    write_rank(tmp_path / "run", steps)
    conn = analysed(runner, tmp_path / "run", warehouse_path)
    structure = "1x matmul[matmul]"
    assert members(conn) == {class_of(structure, steps[0].kernels): [1, 3],
                             class_of(structure, steps[1].kernels): [2]}
    assert sorted(r["step_count"] for r in query(conn, "step_classes")) == [1, 2]


def test_steps_without_shapes_are_never_merged(runner, tmp_path, warehouse_path):
    """Two steps of the same kernels, none with a shape (N/A): two classes of one step each."""
    unshaped = tuple(K(kernel.name, shapes=None, core=kernel.core) for kernel in layer((FIA,)))
    write_rank(tmp_path / "run", [Step(5_000, unshaped), Step(5_000, unshaped)])
    conn = analysed(runner, tmp_path / "run", warehouse_path)
    classes = members(conn)
    assert sorted(classes.values()) == [[1], [2]]
    structure = "1x dense[attention:gqa_or_mha+ffn]"
    pairs = [[k.name, None] for k in unshaped]
    assert set(classes) == {f"step_unknown_shape_{digest([structure, 'step', pairs, [1, 0, step, 0]])}"
                            for step in (1, 2)}
    # a shape on a single kernel is enough to compare: then equal steps merge
    shaped_once = (unshaped[0], matmul(DECODE), *unshaped[2:])
    write_rank(tmp_path / "run2", [Step(5_000, shaped_once), Step(5_000, shaped_once)], rank=1)
    conn = analysed(runner, tmp_path / "run2", warehouse_path)
    assert conn.execute("SELECT count(DISTINCT step_class), count(*) FROM step_class WHERE rank_id = 1").fetchone() == (1, 2)


def test_a_run_without_step_markers_is_cut_at_its_selection_kernels(runner, tmp_path, warehouse_path):
    """Three decode iterations (a layer, the lm head, sampling: top-k/top-p, a cast, argmax) and a partial
    fourth; no ProfilerStep marker. A step ends at the last selection kernel before the next layer anchor,
    so the sampler of three kernels closes one step; the partial iteration is a step of its own."""
    iteration = (*layer((FIA,), DECODE), matmul("8,1024;1024,151936"), K("ApplyTopKTopP", core="AI_VECTOR_CORE"),
                 K("Cast", core="AI_VECTOR_CORE"), K("ArgMaxV2", core="AI_VECTOR_CORE"))
    partial = (norm(), matmul(DECODE))
    records = write_rank(tmp_path / "run", [Step(0, iteration * 3 + partial)], markers=False)
    conn = analysed(runner, tmp_path / "run", warehouse_path)
    assert conn.execute("SELECT count(*) FROM step").fetchone() == (0,)
    steps = conn.execute("SELECT step_id, is_derived, start_ns, end_ns, wall_ns, kernel_count, step_class, structure "
                         "FROM step_class ORDER BY step_id").fetchall()
    size = len(iteration)
    starts_us = [T0_US + HEAD_US + i * (100 + GAP_US) for i in range(len(records))]  # every kernel lasts 100 us

    def window(first, count):
        start, end = starts_us[first] * 1000, (starts_us[first + count - 1] + 100) * 1000
        return start, end, end - start

    decode_class = class_of(GQA.replace("2x", "1x"), iteration)
    assert steps == [
        (1, 1, *window(0, size), size, decode_class, "1x dense[attention:gqa_or_mha+ffn]"),
        (2, 1, *window(size, size), size, decode_class, "1x dense[attention:gqa_or_mha+ffn]"),
        (3, 1, *window(2 * size, size), size, decode_class, "1x dense[attention:gqa_or_mha+ffn]"),
        (4, 1, *window(3 * size, 2), 2, class_of("1x matmul[matmul]", partial), "1x matmul[matmul]"),
    ]
    # a derived step's layer: its FFN block runs to the lm head, never into the sampler
    layers = query(conn, "layers", step_id=2)
    assert [(r["is_derived"], r["layer_kind"], r["block_kind"], r["kernel_count"]) for r in layers] == [
        (1, "dense", "attention", 4), (1, "dense", "ffn", 5)]
    [decode] = [r for r in query(conn, "step_classes") if r["step_class"] == decode_class]
    assert (decode["step_count"], decode["is_derived"], decode["first_step_id"]) == (3, 1, 1)


def test_a_rank_without_markers_whose_kernels_name_their_steps_has_those_steps_only(runner, tmp_path, warehouse_path):
    """kernel_details.csv names steps 1 and 2, the trace has no ProfilerStep marker: the rank's steps are 1
    and 2, each its kernels' extent; the whole capture (step -1), left without kernels, is not a step (it
    listed the same wall time again, as a class without kernels)."""
    steps = [Step(1_000, (matmul("3,4"), norm())), Step(1_000, (matmul("4,3"),))]
    write_rank(tmp_path / "run", steps, markers=False, step_ids=True)
    conn = analysed(runner, tmp_path / "run", warehouse_path)
    first, second = (T0_US + HEAD_US) * 1000, (T0_US + 1_000 + HEAD_US) * 1000
    rows = conn.execute("SELECT step_id, start_ns, end_ns, kernel_count FROM step_class ORDER BY step_id").fetchall()
    assert rows == [(1, first, first + (2 * 100 + GAP_US) * 1000, 2), (2, second, second + 100 * 1000, 1)]


def test_a_step_without_attention_or_moe_is_layered_on_its_matmuls(runner, tmp_path, warehouse_path):
    """Attention the signatures do not name (a graph-fused kernel): the layers anchor on the matmuls,
    one layer between block heads, no attention family."""
    fused = K("FusedGraphKernel_17", core="MIX_AIC")
    step = (norm(), matmul(), fused, matmul(), norm(), matmul(), K("SwiGlu", core="AI_VECTOR_CORE"), matmul())
    write_rank(tmp_path / "run", [Step(5_000, step * 2)])
    conn = analysed(runner, tmp_path / "run", warehouse_path)
    rows = query(conn, "layers")
    assert [(r["layer_index"], r["layer_kind"], r["block_kind"], r["kernel_count"], r["block_ns"],
             r["attention_family"]) for r in rows] == [
        (0, "matmul", "matmul", 4, 400_000, None), (1, "matmul", "matmul", 4, 400_000, None),
        (2, "matmul", "matmul", 4, 400_000, None), (3, "matmul", "matmul", 4, 400_000, None)]
    first = T0_US + HEAD_US
    assert [(r["start_ns"], r["end_ns"]) for r in rows[:2]] == [
        (first * 1000, (first + 3 * 105 + 100) * 1000), ((first + 4 * 105) * 1000, (first + 7 * 105 + 100) * 1000)]
    [step_class] = query(conn, "step_classes")
    assert step_class["structure"] == "4x matmul[matmul]"


def test_the_cut_at_selection_kernels_on_hand_made_sequences():
    def kernels(roles):
        return [Kernel(i, f"k{i}", None, None, role, 1_000 * i, 100, (0,) * 5) for i, role in enumerate(roles)]

    def cut(roles):
        return [[k.kernel_id for k in part] for part in split_at_selection(kernels(roles))]

    # a sampler of several kernels (and a cast between them) closes one step; the rows before the next
    # anchor start the next step
    assert cut(["attention", "selection", "data", "selection", "compute", "matmul", "selection"]) == [
        [0, 1, 2, 3], [4, 5, 6]]
    # a selection kernel first, and rows after the last one: three parts
    assert cut(["selection", "matmul", "selection", "data"]) == [[0], [1, 2], [3]]


def test_analysing_again_replaces_the_step_classes(runner, tmp_path, warehouse_path):
    write_rank(tmp_path / "run", [Step(1_000, (matmul("3,4"),)), Step(1_000, (matmul("4,3"),))])
    conn = analysed(runner, tmp_path / "run", warehouse_path)
    before = conn.execute("SELECT * FROM step_class ORDER BY step_id").fetchall()
    assert runner.invoke(cli, ["analyze", "--db", str(warehouse_path)]).exit_code == 0
    assert conn.execute("SELECT * FROM step_class ORDER BY step_id").fetchall() == before
    assert conn.execute("SELECT count(*) FROM layer_block").fetchone() == (2,)


def test_rank_db_cluster_with_a_moe_layer(warehouse_db):
    """The synthetic cluster's rank dbs (tests/diagnosis/cluster.py): two dense layers, then the MoE
    kernels, which join the second layer (an moe layer); both steps of a rank in one class, ranks alike."""
    load_rules(warehouse_db)
    cluster = synth.build(warehouse_db, ranks=2, steps=(1, 2), moe=True)
    findings.analyze(warehouse_db)
    structure = "1x dense[attention:gqa_or_mha+ffn], 1x moe[attention:gqa_or_mha+moe]"
    rows = query(warehouse_db, "step_classes")
    assert [(r["rank_id"], r["structure"], r["step_count"], r["kernel_count"], r["wall_ns_sum"]) for r in rows] == [
        (rank, structure, 2, 20, 2 * synth.STEP_NS) for rank in (0, 1)]
    assert rows[0]["step_class"] == rows[1]["step_class"]  # same kernels and shapes on both ranks
    blocks = [r for r in query(warehouse_db, "layers", rank_id=1, step_id=2) if r["layer_kind"] == "moe"]
    # the second layer's attention is row 10, its first moe row 16: the moe block starts at (10 + 16 + 1) // 2
    kernels = cluster.kernels[1, 2]
    assert [(r["layer_index"], r["block_kind"], r["kernel_count"], r["block_ns"], r["attention_family"],
             r["first_kernel_id"], r["last_kernel_id"]) for r in blocks] == [
        (1, "attention", 5, 5 * synth.KERNEL_NS, "gqa_or_mha", kernels[8]["id"], kernels[12]["id"]),
        (1, "moe", 7, 7 * synth.KERNEL_NS, "gqa_or_mha", kernels[13]["id"], kernels[19]["id"])]


def test_a_slow_collective_is_in_the_step_the_export_wrote(runner, tmp_path):
    """Text exports with Step Ids and no step markers: the slow all-reduce of step 2 is step 2's,
    as kernel_step says, not the whole capture's (-1) that the step spans alone would give."""
    for rank, allreduce_us in ((0, 1000), (1, 100)):
        allreduce = K("hcom_allReduce__1_1", dur_us=allreduce_us, shapes=None, core="HCCL")
        write_rank(tmp_path / "run", [Step(2000, (matmul(),)), Step(3000, (matmul(), allreduce))],
                   markers=False, step_ids=True, rank=rank)
    conn = analysed(runner, tmp_path / "run", tmp_path / "w.db")
    found = query(conn, "rule_communication_collective_slow")  # a row per evidence row: each rank's operator
    assert {(row["rank_id"], row["step_id"], row["subject"]) for row in found} == {(0, 2, "hcom_allReduce__1_1")}
    assert sorted(row["evidence_table"] for row in found) == ["kernel", "kernel"]
    assert {(row["rank_id"], row["step_id"]) for row in query(conn, "kernel_by_step")} >= {(0, 2), (1, 2)}
    conn.close()
