"""Kernel classification (seed 004 sections 4 and 6) on hand-made kernel rows."""

from __future__ import annotations

import re

import pytest

from tests.factories.rank_db import build_tables, write_db
from tests.factories.text_exports import KernelDetailsFactory, KernelRowFactory, OpSummaryFactory
from warehouse.model import classify
from warehouse.model.classify import classify_source, read_data_file
from warehouse.ingest import ingest_file

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
        # DSA tasks (issue 16): kernel_details.csv core, op_summary / rank-db task type, rank-db TASK type
        ("DSA_SQE", None, "DSAGenBitMask", None, "dsa"),
        (None, "DSA_SQE", "StatelessDropOutGenMask/DSASTATELESSGENBITMASK", None, "dsa"),
        (None, "STARS_COMMON", "aclnnDropoutGenMaskV2_DSAGenBitMask_DSAGenBitMask", None, "dsa"),
        # data movement, HCCL stream tasks, synchronisation
        (None, "MEMCPY_ASYNC", "MEMCPY_ASYNC", None, "memory"),
        (None, "SDMA", "SDMA", None, "memory"),
        (None, "PCIE_DMA_SQE", "MEMCPY_ASYNC", None, "memory"),
        (None, "Notify Wait", "Notify_Wait", None, "communication"),
        (None, "Write Value", "Write_Value", None, "communication"),
        (None, "EVENT_RECORD", "EVENT_RECORD", None, "other"),
        (None, "EVENT_WAIT_SQE", "EVENT_WAIT", None, "other"),
        # a level-0 export names no core: 'other', unless the name says communication
        (None, None, "trans_TransData_0", None, "other"),
        ("N/A", "N/A", "aclnnMuls_MulAiCore_Mul", None, "other"),
        # a core the data files do not list yet stays NULL (the audit of NULL classes finds it)
        ("BRAND_NEW_CORE", None, "Something", None, None),
        # a listed core wins over an unlisted task type, and a listed task type over 'N/A'
        ("N/A", "AI_VECTOR_CORE", "Add", None, "aiv"),
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
    assert classes == {"aic", "aiv", "mix_cv", "communication", "aicpu", "dsa", "memory", "other"}


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


# --- every real task type has a class (issue 16, item 7) -------------------------------------------------------


def kernel_classes(conn) -> list[tuple]:
    return conn.execute("SELECT name, op_class FROM kernel ORDER BY source_row").fetchall()


def test_kernel_details_cores_get_their_class(warehouse_db, tmp_path):
    rows = [
        KernelRowFactory(name="StatelessDropOutGenMask/DSASTATELESSGENBITMASK", type="DSAStatelessGenBitMask",
                         core="DSA_SQE"),
        KernelRowFactory(name="aclnnMm_MatMulCommon_MatMulV2", core="AI_CORE"),
        KernelRowFactory(name="Cast", type="Cast", core="AI_CPU"),
        KernelRowFactory(name="hcom_allReduce__868_0_1", type=None, core="HCCL", aiv="0"),
        # level 0: Accelerator Core N/A
        KernelRowFactory(name="trans_TransData_0", type=None, core=None),
    ]
    path = KernelDetailsFactory(path=tmp_path / "rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv",
                                rows=rows).path
    assert ingest_file(warehouse_db, path).status == "ok"
    assert kernel_classes(warehouse_db) == [
        ("StatelessDropOutGenMask/DSASTATELESSGENBITMASK", "dsa"),
        ("aclnnMm_MatMulCommon_MatMulV2", "aic"),
        ("Cast", "aicpu"),
        ("hcom_allReduce__868_0_1", "communication"),
        ("trans_TransData_0", "other"),
    ]


def test_op_summary_task_types_get_their_class(warehouse_db, tmp_path):
    template = OpSummaryFactory.build().rows[0]
    rows = [
        {**template, "Op Name": "StatelessDropOutGenMask/DSASTATELESSGENBITMASK", "OP Type": "DSAStatelessGenBitMask",
         "Task Type": "DSA_SQE", "aicore_time(us)": None, "aiv_time(us)": None},
        {**template, "Op Name": "MemcpyAsync", "OP Type": "MemcpyAsync", "Task Type": "MEMCPY_ASYNC",
         "aicore_time(us)": None, "aiv_time(us)": None},
        {**template, "Op Name": "ZerosLike", "Task Type": "AI_VECTOR_CORE"},
    ]
    path = OpSummaryFactory(path=tmp_path / "test_rank_0" / "op_summary_0.csv", rows=rows).path
    assert ingest_file(warehouse_db, path).status == "ok"
    assert kernel_classes(warehouse_db) == [
        ("StatelessDropOutGenMask/DSASTATELESSGENBITMASK", "dsa"),
        ("MemcpyAsync", "memory"),
        ("ZerosLike", "aiv"),
    ]


@pytest.mark.parametrize("task_type,expected", (("KERNEL_AICORE", "aic"), ("STARS_COMMON", "dsa")))
def test_rank_db_kernel_without_task_type_takes_its_task_class(warehouse_db, tmp_path, task_type, expected):
    """A level-0 rank db writes COMPUTE_TASK_INFO.taskType and opType 'N/A', read as not given (as the text
    export reads its N/A cells); the TASK row's type still says where it ran."""
    tables = build_tables(0, 0, 1_736_410_576_000_000_000, True, "blockDim")
    strings = dict((value, id_) for id_, value in tables["STRING_IDS"][1])
    ddl, compute = tables["COMPUTE_TASK_INFO"]
    task_ddl, tasks = tables["TASK"]
    assert [row[1] for row in compute] == [10] and tasks[0][4] == 10
    new_id = max(strings.values()) + 1
    string_rows = tables["STRING_IDS"][1]
    if task_type not in strings:
        string_rows = [*string_rows, (new_id, task_type)]
        strings[task_type] = new_id
    tables["STRING_IDS"] = (tables["STRING_IDS"][0], string_rows)
    # taskType and opType are the 5th and 6th columns of COMPUTE_TASK_INFO, taskType the 7th of TASK
    tables["COMPUTE_TASK_INFO"] = (ddl, [(*row[:4], strings["N/A"], strings["N/A"], *row[6:]) for row in compute])
    tables["TASK"] = (task_ddl, [(*tasks[0][:6], strings[task_type], *tasks[0][7:]), *tasks[1:]])
    path = tmp_path / "rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db"
    path.parent.mkdir(parents=True)
    write_db(path, tables)
    assert ingest_file(warehouse_db, path).status == "ok"
    kernels = warehouse_db.execute("SELECT name, op_type, task_type, accelerator_core, op_class FROM kernel")
    assert kernels.fetchall() == [("MatMul_1", None, None, None, expected)]


def test_every_real_kernel_has_a_class(tmp_path, realdata):
    """Every kernel_details.csv, op_summary and rank db of the real samples: no kernel is left unclassified."""
    from warehouse import db
    from warehouse.ingest import ingest_paths

    files = sorted(
        path for pattern in ("kernel_details*.csv", "op_summary*.csv", "ascend_pytorch_profiler_*.db")
        for path in realdata.rglob(pattern)
    )
    assert len(files) >= 10
    conn = db.connect(tmp_path / "real.db")
    results = ingest_paths(conn, files)
    assert [(r.path, r.status) for r in results if r.status != "ok"] == []
    assert conn.execute("SELECT origin, name, accelerator_core, task_type FROM kernel WHERE op_class IS NULL "
                        "LIMIT 5").fetchall() == []
    classes = dict(conn.execute("SELECT op_class, count(*) FROM kernel GROUP BY 1").fetchall())
    # DSA: 6 kernel_details.csv rows (DSA_SQE), 2 op_summary rows, 8 rank-db kernels (4 DSA_SQE, 4 STARS_COMMON);
    # 'other': the level-0 kernel_details.csv rows, whose Accelerator Core is N/A;
    # aic 182 + 686 and aicpu 4 + 4: the 2024-10 torch_npu rank dbs (pytorch_2024-10-21, an Ascend910A, 2 ranks)
    # add 343 KERNEL_AICORE tasks (the 910A's AI Core, not split into cube and vector) and 2 KERNEL_AICPU ones
    # (StatelessDropOutGenMask) per rank, nothing else
    assert classes == {"aic": 868, "aiv": 898, "mix_cv": 76, "aicpu": 8, "dsa": 16, "communication": 26,
                       "other": 374}
    older = conn.execute(
        "SELECT k.op_class, count(*), count(DISTINCT k.name) FILTER (WHERE k.name LIKE 'StatelessDropOutGenMask%') "
        "FROM kernel AS k JOIN source AS s ON s.id = k.source_id "
        "WHERE s.path LIKE '%pytorch_2024-10-21%' GROUP BY 1 ORDER BY 1").fetchall()
    assert older == [("aic", 686, 0), ("aicpu", 4, 2)]
    # a level-0 rank db names no task type in COMPUTE_TASK_INFO: its kernels take the TASK type (none is 'other')
    assert conn.execute("SELECT count(*) FROM kernel WHERE origin = 'rank_db' AND op_class = 'other'").fetchone() == (0,)
    conn.close()
