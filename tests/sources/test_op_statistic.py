"""op_statistic.csv into ``op_statistic``."""

from __future__ import annotations

from tests.factories.text_exports import OpStatisticFactory
from warehouse.ingest import ingest_file


def test_values_and_units(warehouse_db, tmp_path):
    path = tmp_path / "rank1_ascend_pt" / "ASCEND_PROFILER_OUTPUT" / "op_statistic.csv"
    OpStatisticFactory(path=path)
    result = ingest_file(warehouse_db, path)
    assert (result.status, result.kind, result.rows) == ("ok", "op_statistic_csv", 2)
    # per_step is NULL: torch_npu's table sums the whole capture (only MindSpore's older type table is one step)
    assert warehouse_db.execute("SELECT * FROM op_statistic ORDER BY source_row").fetchall() == [
        (result.source_id, 1, 1, "ForeachAddList", "AI_VECTOR_CORE", 3, 1959079, 624152, 653026, 706614, 22.077, None),
        (result.source_id, 2, 1, "TransData", "AI_VECTOR_CORE", 57, 1423208, 6540, 24969, 70801, 16.038, None),
    ]


def test_rank_is_unknown_when_the_path_does_not_say(warehouse_db, tmp_path):
    path = tmp_path / "op_statistic.csv"
    OpStatisticFactory(path=path)
    ingest_file(warehouse_db, path)
    # the table rows and the source row alike say -1 (unknown)
    assert warehouse_db.execute("SELECT DISTINCT rank_id FROM op_statistic").fetchall() == [(-1,)]
    assert warehouse_db.execute("SELECT rank_id FROM source").fetchall() == [(-1,)]
