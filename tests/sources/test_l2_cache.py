"""l2_cache.csv into ``kernel_l2_cache``."""

from __future__ import annotations

from tests.factories.text_exports import L2CacheFactory
from warehouse.ingest import ingest_file


def test_values(warehouse_db, tmp_path):
    path = tmp_path / "l2_cache.csv"
    L2CacheFactory(path=path)
    result = ingest_file(warehouse_db, path)
    assert (result.status, result.kind, result.rows) == ("ok", "l2_cache_csv", 2)
    assert warehouse_db.execute(
        "SELECT source_row, stream_id, task_id, hit_rate, victim_rate, op_name FROM kernel_l2_cache "
        "ORDER BY source_row").fetchall() == [
        (1, 2, 11052, None, 0.23264, "trans_TransData_1"),
        (2, 2, 11053, 0.875, 0.066913, "Conv2D1"),
    ]
