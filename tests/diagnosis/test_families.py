"""Attention families (seed 004 section 8) and kernel categories as a set, from text exports.

Each family's run is one rank whose step holds two dense layers with that family's attention kernels
(kernel names as the seed gives them); ingested and analysed, the layers query names the family of
each layer, and the step's structure carries it."""

import pytest
from click.testing import CliRunner

from tests.diagnosis.text_run import K, Step, analysed, layer, query, write_rank
from tests.factories import warehouse_rows
from warehouse.analysis.families import category_sets, family_rules, resolve
from warehouse.model import classify

FIA = K("FusedInferAttentionScore", core="MIX_AIC")
COMPRESSOR = K("KvCompressor", core="AI_VECTOR_CORE")
INDEXER = K("LightningIndexer", core="MIX_AIC")
SPARSE = K("SparseAttnSharedKV", core="MIX_AIC")
SPARSE_METADATA = K("SparseAttnSharedKVMetadata", core="AI_VECTOR_CORE")
MLA_PROLOG = K("MlaProlog", core="MIX_AIC")
MLA_CACHE = K("KvRmsNormRopeCache", core="AI_VECTOR_CORE")
KVCOMP = K("HammingDistTopK", core="AI_VECTOR_CORE")

#: family -> the attention kernels of its layers
FAMILIES = {
    "csa": (COMPRESSOR, INDEXER, SPARSE_METADATA, SPARSE),
    "hca": (COMPRESSOR, FIA),
    "dsa": (INDEXER, SPARSE_METADATA, SPARSE),
    "mla": (MLA_PROLOG, FIA),
    "linear": (K("CausalConv1d", core="AI_VECTOR_CORE"), K("GatedDeltaRule", core="AI_VECTOR_CORE")),
    "gqa_or_mha": (FIA,),
    "attn": (K("PagedAttention", core="MIX_AIC"),),
    "mla+kvc": (MLA_CACHE, KVCOMP, FIA),
    "dsa+kvc": (INDEXER, KVCOMP, SPARSE),
}


@pytest.fixture(scope="module")
def family_runs(tmp_path_factory):
    """Every family's run (a folder named after the family) in one warehouse, ingested and analysed
    once (seconds): a read-only connection and each family's run id. A run's layers and step classes
    are its own (tests/diagnosis/test_rules.py: two runs are never added together)."""
    folder = tmp_path_factory.mktemp("families")
    for family, kernels in FAMILIES.items():
        write_rank(folder / "runs" / family, [Step(10_000, layer(kernels) * 2)])
    conn = analysed(CliRunner(), folder / "runs", folder / "warehouse.db")
    yield conn, dict(conn.execute("SELECT name, run_id FROM run").fetchall())
    conn.close()


@pytest.mark.parametrize("family", FAMILIES)
def test_every_family_is_resolved_per_layer_from_its_kernels(family_runs, family):
    conn, run_ids = family_runs
    attention = len(FAMILIES[family]) + 3  # pre-norm, qkv matmul, the family's kernels, o matmul
    assert [(r["layer_index"], r["layer_kind"], r["block_kind"], r["kernel_count"], r["attention_family"])
            for r in query(conn, "layers", run_id=run_ids[family])] == [
        (index, "dense", kind, count, family)
        for index in (0, 1) for kind, count in (("attention", attention), ("ffn", 4))]
    [step_class] = query(conn, "step_classes", run_id=run_ids[family])
    assert step_class["structure"] == f"2x dense[attention:{family}+ffn]"


def test_the_decision_order_of_the_families_file():
    # compressor + indexer + sparse is csa even with flash score (csa comes before hca)
    assert resolve({"attention.kv_compressor", "attention.lightning_indexer", "attention.sparse_sharedkv",
                    "attention.flash_score"}) == "csa"
    # an indexer rules hca out, a compressor dsa: compressor + indexer + flash score is none of the three
    assert resolve({"attention.kv_compressor", "attention.lightning_indexer", "attention.flash_score"}) == "gqa_or_mha"
    # an mla marker beside a compressor is not mla (hca wins first)
    assert resolve({"attention.mla", "attention.kv_compressor", "attention.flash_score"}) == "hca"
    assert resolve({"attention.mla", "attention.linear_or_mamba"}) == "mla"
    # the metadata kernel alone is not sparse_sharedkv: the indexer with it is no dsa
    assert resolve({"attention.lightning_indexer", "attention.sparse_sharedkv.metadata"}) == "attn"
    assert resolve(set()) == "attn" and resolve({"attention.kvcomp.topk"}) == "attn+kvc"
    families, overlays = family_rules()
    assert [rule.family for rule in families] == ["csa", "hca", "dsa", "mla", "linear", "gqa_or_mha", "attn"]
    assert [rule.family for rule in overlays] == ["+kvc"]


def test_a_kernel_has_its_categories_as_a_set(runner, tmp_path, warehouse_path):
    """MlaProlog is attention.mla.preprocess (its primary category, kernel.category) and attention.mla;
    FusedInferAttentionScore stays attention.flash_score alone (a category is neutral)."""
    write_rank(tmp_path / "run", [Step(10_000, layer((MLA_PROLOG, FIA)))])
    conn = analysed(runner, tmp_path / "run", warehouse_path)
    rows = conn.execute(
        "SELECT k.name, k.category, group_concat(c.category, ' ') FROM kernel AS k "
        "JOIN (SELECT kernel_id, category FROM kernel_category ORDER BY category) AS c ON c.kernel_id = k.id "
        "WHERE k.name IN ('MlaProlog', 'FusedInferAttentionScore') GROUP BY k.id ORDER BY k.id").fetchall()
    assert rows == [("MlaProlog", "attention.mla.preprocess", "attention.mla attention.mla.preprocess"),
                    ("FusedInferAttentionScore", "attention.flash_score", "attention.flash_score")]
    # every kernel has its primary category in the set
    assert conn.execute("SELECT count(*) FROM kernel WHERE id NOT IN (SELECT kernel_id FROM kernel_category "
                        "WHERE kernel_category.category = kernel.category)").fetchone() == (0,)


def test_a_new_category_set_line_reaches_the_kernels_sets(warehouse_db, tmp_path, monkeypatch):
    """The sets file is versioned data: a new line (flash score also 'attention.dense') is in the
    rules table and in every flash-score kernel's set at the next load, without a reclassification."""
    original = classify.CATEGORY_SETS_FILE.read_text(encoding="utf-8").replace("version 1", "version 2")
    patched = tmp_path / "kernel_category_sets.csv"
    patched.write_text(original + "attention.flash_score,attention.dense\n", encoding="utf-8")
    with warehouse_rows.bound(warehouse_db):
        kernel = warehouse_rows.KernelFactory(name="FusedInferAttentionScore", category="attention.flash_score")
    classify.load_rules(warehouse_db)
    assert category_sets(warehouse_db)["attention.mla.preprocess"] == {"attention.mla"}
    monkeypatch.setattr(classify, "CATEGORY_SETS_FILE", patched)
    classify.load_rules(warehouse_db)
    assert warehouse_db.execute("SELECT DISTINCT version FROM kernel_category_member").fetchall() == [(2,)]
    assert warehouse_db.execute("SELECT category FROM kernel_category WHERE kernel_id = ? ORDER BY category",
                                (kernel["id"],)).fetchall() == [("attention.dense",), ("attention.flash_score",)]
