"""api_statistic.csv into ``api_statistic``."""

from __future__ import annotations

import pytest

from tests.factories.text_exports import ApiStatisticFactory
from warehouse.ingest import ingest_file


def test_values_and_units(warehouse_db, tmp_path):
    path = tmp_path / "api_statistic.csv"
    ApiStatisticFactory(path=path)
    result = ingest_file(warehouse_db, path)
    assert (result.status, result.kind, result.rows) == ("ok", "api_statistic_csv", 2)
    rows = warehouse_db.execute(
        "SELECT source_row, level, api_name, total_ns, count, avg_ns, min_ns, max_ns, variance_ns2 "
        "FROM api_statistic ORDER BY source_row").fetchall()
    assert rows[0][:8] == (1, "hccl", "Launch_Ffts", 474410, 4, 118603, 89180, 138750)
    assert rows[0][8] == pytest.approx(389.155e6)
    assert rows[1][:4] == (2, "acl", "MaxPoolGradWithArgmaxV1_Tiling", 30830)
