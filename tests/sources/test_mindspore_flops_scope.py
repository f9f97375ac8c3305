"""flops_scope_{device}.json (MindSpore's FLOPs per scope) into ``mindspore_flops_scope``, reconciled with the
device's FLOPs summary by the audit mindspore_flops_scope_agrees."""

from __future__ import annotations

import json

import pytest

from tests.factories.mindspore_summaries import FlopsScopeFactory, FlopsSummaryFactory, scope_json
from tests.sources.audit_examples import audit_examples
from tests.sources.mindspore_hostile import assert_fails_naming
from warehouse.ingest import ingest_file, ingest_paths

LINKS = "SELECT source_row, rank_id, parent_scope, scope, mflops FROM mindspore_flops_scope ORDER BY source_row"


def test_each_link_a_scope_within_its_parent(warehouse_db, tmp_path):
    written = FlopsScopeFactory(path=tmp_path / "flops_scope_1.json")
    result = ingest_file(warehouse_db, written.path)
    assert (result.status, result.kind, result.rows) == ("ok", "mindspore_flops_scope_json", 5)
    assert warehouse_db.execute(LINKS).fetchall() == [(number, 1, *link) for number, link in enumerate(written.rows, 1)]
    assert '"max_scope_num": 4' in warehouse_db.execute("SELECT detail FROM source").fetchone()[0]


def test_the_total_agrees_with_the_summary_and_a_different_one_is_listed(warehouse_db, tmp_path):
    FlopsScopeFactory(path=tmp_path / "profiler" / "flops_scope_0.json")
    FlopsSummaryFactory(path=tmp_path / "profiler" / "flops_summary_0.json")
    assert {r.status for r in ingest_paths(warehouse_db, [tmp_path / "profiler"])} == {"ok"}
    assert audit_examples(warehouse_db, "mindspore_flops_scope_agrees") == []
    FlopsScopeFactory(path=tmp_path / "profiler" / "flops_scope_0.json", rows=[("Total", "Default", 30.0)])
    ingest_paths(warehouse_db, [tmp_path / "profiler"])
    assert [row[4:] for row in audit_examples(warehouse_db, "mindspore_flops_scope_agrees")] == [(1, 30.0, 30.5)]


@pytest.mark.parametrize(("document", "reason"), [
    ({"data": {"nodes": []}, "max_scope_num": 1}, "data.links: expected a list of links"),
    ({"data": {"links": [{"source": "Total", "target": "Default", "value": "1"}]}}, "data.links[0].value: expected"),
    ({"data": {"links": [{"source": "Total", "value": 1}]}}, "data.links[0]: expected 'source' and 'target' names"),
    ({"data": {"links": [7]}}, "data.links[0]: expected an object"),
])
def test_a_hostile_file_fails_naming_the_place(warehouse_db, tmp_path, document, reason):
    written = FlopsScopeFactory(path=tmp_path / "flops_scope_0.json")
    assert_fails_naming(warehouse_db, written.path, json.dumps(document).encode(), reason, "mindspore_flops_scope")


def test_the_factory_writes_as_mindspore_does():
    # the real file's first bytes: json.dump of the nodes in order of first use, then the links
    assert scope_json([("Total", "Default", 1.5)], 7) == (
        b'{"data": {"nodes": [{"name": "Total"}, {"name": "Default"}], '
        b'"links": [{"source": "Total", "target": "Default", "value": 1.5}]}, "max_scope_num": 7}')


def test_the_real_file_sums_to_its_summary(warehouse_db, realdata):
    """profiler/flops_scope_0.json: figures from the file read here independently; its links from Total
    (Default 4,655.465, Gradients 3,512.277) sum to 8,167.742, the 8,167.743 MFLOPs of flops_summary_0.json
    beside it (each figure rounded to 3 decimals), so the audit passes."""
    folder = realdata / "mindinsight" / "profiler"
    document = json.loads((folder / "flops_scope_0.json").read_text())
    result = ingest_file(warehouse_db, folder / "flops_scope_0.json")
    assert (result.status, result.rows) == ("ok", len(document["data"]["links"]))
    assert len(document["data"]["links"]) == 34
    assert warehouse_db.execute(
        "SELECT scope, mflops FROM mindspore_flops_scope WHERE parent_scope = 'Total' ORDER BY scope").fetchall() == [
        ("Default", 4655.465), ("Gradients", 3512.277)]
    ingest_file(warehouse_db, folder / "flops_summary_0.json")
    assert audit_examples(warehouse_db, "mindspore_flops_scope_agrees") == []
    assert warehouse_db.execute(
        "SELECT count(*) FROM mindspore_flops_summary WHERE abs(mflops - 8167.743) < 1e-9").fetchone() == (1,)
