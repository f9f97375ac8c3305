"""profiler_info_{rank}.json into ``run_metadata`` and ``rank``."""

from __future__ import annotations

import json

from tests.factories.text_exports import ProfilerInfoFactory
from warehouse.ingest import ingest_file
from warehouse.sources import profiler_info, profiler_metadata


def test_metadata_and_rank(warehouse_db, tmp_path):
    path = tmp_path / "profiler_info_3.json"
    written = ProfilerInfoFactory(path=path)
    assert profiler_info.detect(path) and not profiler_metadata.detect(path)
    result = ingest_file(warehouse_db, path)
    # the 4 top-level keys as run_metadata rows; the rank is the source's (rank is a view over the inputs)
    assert (result.status, result.kind, result.rows) == ("ok", "profiler_info_json", 4)
    metadata = dict(warehouse_db.execute("SELECT name, value FROM run_metadata WHERE rank_id = 3").fetchall())
    assert set(metadata) == {"config", "start_info", "end_info", "rank_id"}
    assert json.loads(metadata["config"]) == written.document["config"]
    assert json.loads(metadata["end_info"])["collectionTimeEnd"] == 1736408884023552840
    assert warehouse_db.execute("SELECT rank_id, source_id FROM rank").fetchall() == [(3, result.source_id)]


def test_rank_from_the_name_when_the_file_has_none(warehouse_db, tmp_path):
    path = tmp_path / "profiler_info_7.json"
    document = ProfilerInfoFactory.build().document
    del document["rank_id"]
    ProfilerInfoFactory(path=path, document=document)
    assert ingest_file(warehouse_db, path).status == "ok"
    assert warehouse_db.execute("SELECT rank_id FROM rank").fetchall() == [(7,)]
