"""Kernel classification (seed 004 sections 4 and 6) on hand-made kernel rows."""

from __future__ import annotations

import re

import pytest

from warehouse.analysis import classify
from warehouse.analysis.classify import classify_source, read_data_file

STAGES = ("aic_mac_ns", "aic_fixpipe_ns", "aic_mte1_ns", "aic_mte2_ns", "aic_scalar_ns",
          "aiv_vec_ns", "aiv_mte2_ns", "aiv_mte3_ns", "aiv_scalar_ns")


def add_source(conn, source_id=1):
    conn.execute(
        "INSERT INTO source (id, path, sha256, size_bytes, status, ingested_at) "
        "VALUES (?, ?, ?, 0, 'ok', '2026-01-01')",
        (source_id, f"/in/{source_id}", f"sha{source_id}"),
    )


def add_kernel(conn, *, source_id=1, name="k", op_type=None, core=None, task_type=None, aiv_ns=None, **stages):
    columns = ["source_id", "origin", "name", "op_type", "accelerator_core", "task_type", "aiv_ns", *stages]
    values = [source_id, "kernel_details_csv", name, op_type, core, task_type, aiv_ns, *stages.values()]
    marks = ", ".join("?" * len(values))
    return conn.execute(f"INSERT INTO kernel ({', '.join(columns)}) VALUES ({marks})", values).lastrowid


def classified(conn, kernel_id):
    row = conn.execute(
        "SELECT op_class, cube_ns, vector_ns, aic_mte_ns, aiv_mte_ns, scalar_ns, dominant_core, "
        "bound_stage, bound_family, category FROM kernel WHERE id = ?",
        (kernel_id,),
    ).fetchone()
    keys = ("op_class", "cube_ns", "vector_ns", "aic_mte_ns", "aiv_mte_ns", "scalar_ns", "dominant_core",
            "bound_stage", "bound_family", "category")
    return dict(zip(keys, row))


def run(conn, source_id=1):
    conn.execute("BEGIN")
    classify_source(conn, source_id)
    conn.execute("COMMIT")


@pytest.mark.parametrize(
    "core,task_type,name,aiv_ns,expected",
    (
        ("AI_CORE", None, "MatMulV2", None, "aic"),
        ("AI_VECTOR_CORE", None, "Add", None, "aiv"),
        ("MIX_AIC", None, "FlashAttentionScore", None, "mix_cv"),
        ("MIX_AIV", None, "NonZero", None, "mix_cv"),
        ("AI_CPU", None, "Cast", None, "aicpu"),
        ("HCCL", None, "hcom_allReduce__586_0_1", None, "communication"),
        ("COMMUNICATION", None, "hcom_broadcast_", 0, "communication"),
        # DispatchFFNCombine reports COMMUNICATION but runs half its time on AIV (seed 004 section 4)
        ("COMMUNICATION", None, "DispatchFFNCombine", 12000, "mix_comm_aiv"),
        # rank-db task types
        (None, "KERNEL_AICORE", "MatMul", None, "aic"),
        (None, "KERNEL_AIVEC", "Mul", None, "aiv"),
        (None, "MIX_AIV", "GroupedMatmul", None, "mix_cv"),
        (None, "AI_CORE", "Conv2D", None, "aic"),
        (None, "KERNEL_AICPU", "Unique", None, "aicpu"),
        # no core given: a communication kernel is still known by its name
        (None, None, "hcom_allGather__1", None, "communication"),
        ("DSA_SQE", None, "DSAGenBitMask", None, None),
        (None, None, "trans_TransData_0", None, None),
    ),
)
def test_op_class(warehouse_db, core, task_type, name, aiv_ns, expected):
    add_source(warehouse_db)
    kernel_id = add_kernel(warehouse_db, core=core, task_type=task_type, name=name, aiv_ns=aiv_ns)
    run(warehouse_db)
    assert classified(warehouse_db, kernel_id)["op_class"] == expected


def test_communication_with_aiv_pipeline_time_is_mix_comm_aiv(warehouse_db):
    add_source(warehouse_db)
    kernel_id = add_kernel(warehouse_db, core="COMMUNICATION", name="DispatchFFNCombine", aiv_vec_ns=7)
    run(warehouse_db)
    assert classified(warehouse_db, kernel_id)["op_class"] == "mix_comm_aiv"


@pytest.mark.parametrize(
    "stage,bound_stage,bound_family,dominant_core",
    (
        ("aic_mac_ns", "mac", "cube", "aic"),
        ("aic_fixpipe_ns", "fixpipe", "cube", "aic"),
        ("aic_mte1_ns", "aic_mte1", "aic_mte", "aic"),
        ("aic_mte2_ns", "aic_mte2", "aic_mte", "aic"),
        ("aic_scalar_ns", "aic_scalar", "scalar", "aic"),
        ("aiv_vec_ns", "vec", "vector", "aiv"),
        ("aiv_mte2_ns", "aiv_mte2", "aiv_mte", "aiv"),
        ("aiv_mte3_ns", "aiv_mte3", "aiv_mte", "aiv"),
        ("aiv_scalar_ns", "aiv_scalar", "scalar", "aiv"),
    ),
)
def test_bound_stage_family_and_dominant_core(warehouse_db, stage, bound_stage, bound_family, dominant_core):
    add_source(warehouse_db)
    stages = {name: 10 for name in STAGES}
    stages[stage] = 100
    kernel_id = add_kernel(warehouse_db, core="MIX_AIC", **stages)
    run(warehouse_db)
    got = classified(warehouse_db, kernel_id)
    assert (got["bound_stage"], got["bound_family"], got["dominant_core"]) == (bound_stage, bound_family, dominant_core)


def test_families_sum_their_stages_and_keep_aic_and_aiv_mte_apart(warehouse_db):
    add_source(warehouse_db)
    kernel_id = add_kernel(
        warehouse_db, core="MIX_AIV",
        aic_mac_ns=1000, aic_fixpipe_ns=200, aic_mte1_ns=30, aic_mte2_ns=4000, aic_scalar_ns=5,
        aiv_vec_ns=600, aiv_mte2_ns=70, aiv_mte3_ns=8, aiv_scalar_ns=9,
    )
    run(warehouse_db)
    got = classified(warehouse_db, kernel_id)
    assert (got["cube_ns"], got["vector_ns"], got["aic_mte_ns"], got["aiv_mte_ns"], got["scalar_ns"]) == (
        1200, 600, 4030, 78, 14)
    # the largest sub-stage is aic mte2 and its family aic_mte; the AIC side (5235) outweighs the AIV side (687)
    assert (got["bound_stage"], got["bound_family"], got["dominant_core"]) == ("aic_mte2", "aic_mte", "aic")


def test_family_bound_can_differ_from_stage_bound(warehouse_db):
    add_source(warehouse_db)
    # the largest single stage is aiv_mte2 (50) but cube = mac + fixpipe (40 + 40) is the largest family
    kernel_id = add_kernel(warehouse_db, core="MIX_AIC", aic_mac_ns=40, aic_fixpipe_ns=40, aiv_mte2_ns=50)
    run(warehouse_db)
    got = classified(warehouse_db, kernel_id)
    assert (got["bound_stage"], got["bound_family"]) == ("aiv_mte2", "cube")


def test_no_pipeline_times_leave_families_and_bounds_null(warehouse_db):
    add_source(warehouse_db)
    kernel_id = add_kernel(warehouse_db, core="HCCL", name="hcom_allReduce_")
    run(warehouse_db)
    got = classified(warehouse_db, kernel_id)
    assert got == {
        "op_class": "communication", "cube_ns": None, "vector_ns": None, "aic_mte_ns": None, "aiv_mte_ns": None,
        "scalar_ns": None, "dominant_core": None, "bound_stage": None, "bound_family": None,
        "category": "communication.collective",
    }


@pytest.mark.parametrize(
    "name,op_type,category",
    (
        ("aclnnFusedInferAttentionScore_0", "FusedInferAttentionScore", "attention.flash_score"),
        ("FlashAttentionScoreGrad", "FlashAttentionScoreGrad", "attention.flash_score_grad"),
        ("SparseAttnSharedKVMetadata", None, "attention.sparse_sharedkv.metadata"),
        ("sparse_attn_shared_kv", None, "attention.sparse_sharedkv"),
        ("LightningIndexer", None, "attention.lightning_indexer"),
        ("KvCompressor_7", None, "attention.kv_compressor"),
        ("MlaProlog", None, "attention.mla.preprocess"),
        ("causal_conv1d_fn", None, "attention.linear_or_mamba"),
        # DispatchFFNCombine is MoE work even though it is also a collective
        ("DispatchFFNCombine", None, "moe.dispatch_expert_compute"),
        ("MoeDistributeDispatch", None, "moe.dispatch"),
        ("GroupedMatmul_3", "GroupedMatmul", "moe.grouped_matmul"),
        ("aclnnMm_MatMulCommon_MatMulV2", "MatMulV2", "compute.matmul"),
        ("hcom_allReduce__586_0_1", "hcom_allReduce_", "communication.collective"),
        ("ArgMaxV2", None, "selection.argmax"),
        # a max pool that also returns its argmax is a pool, not a selection
        ("MaxPoolWithArgmaxV1", "MaxPoolWithArgmaxV1", "compute.pool"),
        ("ApplyTopKTopP", None, "selection.sampling"),
        # BroadcastTo is a vector op, not an HCCL broadcast
        ("BroadcastTo", "BroadcastTo", "data.layout"),
        ("Equal", "Equal", "compute.elementwise"),
        # general patterns come last: a fused kernel is what its specific pattern says
        ("aclnnAddmm_MatMulCommon_MatMulV2", "MatMulV2", "compute.matmul"),
        ("aclnnForeachMulScalar_ForeachMulScalar", "ForeachMulScalar", "compute.optimizer"),
        ("hcom_reduceScatter__1", "hcom_reduceScatter_", "communication.collective"),
        ("MoeGatingTopK", None, "moe.gating"),
        ("SomethingNew", "SomethingNew", None),
    ),
)
def test_category_from_signatures(warehouse_db, name, op_type, category):
    add_source(warehouse_db)
    kernel_id = add_kernel(warehouse_db, name=name, op_type=op_type, core="AI_CORE")
    run(warehouse_db)
    assert classified(warehouse_db, kernel_id)["category"] == category


def test_only_the_given_source_is_classified(warehouse_db):
    add_source(warehouse_db, 1)
    add_source(warehouse_db, 2)
    mine = add_kernel(warehouse_db, source_id=1, core="AI_CORE", name="MatMul")
    other = add_kernel(warehouse_db, source_id=2, core="AI_CORE", name="MatMul")
    run(warehouse_db, 1)
    assert classified(warehouse_db, mine)["op_class"] == "aic"
    assert classified(warehouse_db, other)["op_class"] is None


def test_a_new_signature_line_is_picked_up(warehouse_db, tmp_path, monkeypatch):
    patched = tmp_path / "kernel_signatures.csv"
    original = classify.SIGNATURES_FILE.read_text(encoding="utf-8").splitlines()
    header_end = next(i for i, line in enumerate(original) if not line.startswith("#"))
    lines = [re.sub(r"version \d+", "version 999", original[0]), *original[1:header_end + 1],
             "mynewkernel,attention.brand_new,attention", *original[header_end + 1:]]
    patched.write_text("\n".join(lines) + "\n", encoding="utf-8")
    monkeypatch.setattr(classify, "SIGNATURES_FILE", patched)
    add_source(warehouse_db)
    kernel_id = add_kernel(warehouse_db, name="My_New_Kernel", core="AI_VECTOR_CORE")
    run(warehouse_db)
    assert classified(warehouse_db, kernel_id)["category"] == "attention.brand_new"
    assert read_data_file(patched).version == 999


def test_classify_all_reclassifies_every_source(warehouse_db, tmp_path, monkeypatch):
    add_source(warehouse_db, 1)
    add_source(warehouse_db, 2)
    first = add_kernel(warehouse_db, source_id=1, name="My_New_Kernel", core="AI_CORE")
    second = add_kernel(warehouse_db, source_id=2, name="my-new-kernel", core="AI_CORE")
    run(warehouse_db, 1)
    run(warehouse_db, 2)
    assert classified(warehouse_db, first)["category"] is None
    patched = tmp_path / "kernel_signatures.csv"
    patched.write_text("# Kernel signatures, version 99\npattern,category,role\nmynewkernel,compute.new,compute\n")
    monkeypatch.setattr(classify, "SIGNATURES_FILE", patched)
    warehouse_db.execute("BEGIN")
    assert classify.classify_all(warehouse_db) == 2
    warehouse_db.execute("COMMIT")
    assert [classified(warehouse_db, k)["category"] for k in (first, second)] == ["compute.new", "compute.new"]


def test_signature_file_is_well_formed():
    signatures = read_data_file(classify.SIGNATURES_FILE)
    patterns = [row["pattern"] for row in signatures.rows]
    assert len(patterns) == len(set(patterns))
    assert all(pattern == pattern.lower() and pattern.isalnum() for pattern in patterns)
    assert {row["role"] for row in signatures.rows} <= {
        "communication", "attention", "moe", "matmul", "selection", "compute", "data"}
    classes = {row["op_class"] for row in read_data_file(classify.CORE_CLASSES_FILE).rows}
    assert classes == {"aic", "aiv", "mix_cv", "communication", "aicpu"}


def test_both_exports_of_a_run_classify_alike(warehouse_path, tmp_path, realdata):
    """The same model profiled with export_type=text and export_type=db (msinsight level1, rank 0):
    the kernel classes and categories agree; the text export also lists the HCCL kernels
    (the db keeps them in communication_op)."""
    from warehouse import db
    from warehouse.ingest import ingest_paths

    counts = {}
    for export in ("text", "db"):
        conn = db.connect(tmp_path / f"{export}.db")
        ingest_paths(conn, [realdata / f"msinsight/pytorch/{export}/level1/rank0_ascend_pt"])
        counts[export] = conn.execute(
            "SELECT op_class, category, count(*) FROM kernel WHERE op_class IS NOT 'communication' "
            "GROUP BY 1, 2 ORDER BY 1, 2").fetchall()
        conn.close()
    assert counts["text"] == counts["db"]
    assert ("aic", "compute.matmul", 9) in counts["text"]
    # every kernel of this ResNet run has a signature
    assert [row for row in counts["text"] if row[1] is None] == []
    assert sum(n for _, _, n in counts["text"]) == 187
