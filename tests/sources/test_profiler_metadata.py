"""profiler_metadata.json into ``run_metadata``."""

from __future__ import annotations

import json

from tests.factories.text_exports import ProfilerMetadataFactory
from warehouse.ingest import ingest_file


def test_one_row_per_key(warehouse_db, tmp_path):
    path = tmp_path / "rank2_ascend_pt" / "profiler_metadata.json"
    ProfilerMetadataFactory(path=path)
    result = ingest_file(warehouse_db, path)
    assert (result.status, result.kind, result.rows) == ("ok", "profiler_metadata_json", 2)
    rows = warehouse_db.execute("SELECT rank_id, name, value FROM run_metadata ORDER BY name").fetchall()
    assert [(rank, name) for rank, name, _ in rows] == [(2, "ENV_VARIABLES"), (2, "distributed_args")]
    assert json.loads(rows[0][2]) == {"ASCEND_GLOBAL_LOG_LEVEL": "", "HCCL_RDMA_TC": "4"}


def test_user_metadata_first(warehouse_db, tmp_path):
    path = tmp_path / "profiler_metadata.json"
    ProfilerMetadataFactory(path=path, document={"model": "resnet50", "ENV_VARIABLES": {"A": "1"}})
    result = ingest_file(warehouse_db, path)
    assert (result.status, result.kind, result.rows) == ("ok", "profiler_metadata_json", 2)
    assert warehouse_db.execute("SELECT name, value FROM run_metadata ORDER BY name").fetchall() == [
        ("ENV_VARIABLES", '{"A": "1"}'), ("model", "resnet50")]


def test_outside_a_rank_folder_the_rank_is_unknown(warehouse_db, tmp_path):
    path = tmp_path / "metadata" / "profiler_metadata.json"
    ProfilerMetadataFactory(path=path)
    ingest_file(warehouse_db, path)
    assert warehouse_db.execute("SELECT DISTINCT rank_id FROM run_metadata").fetchall() == [(-1,)]
    assert warehouse_db.execute("SELECT rank_id FROM source").fetchall() == [(-1,)]
