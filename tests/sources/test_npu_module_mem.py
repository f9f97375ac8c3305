"""npu_module_mem.csv into ``npu_module_mem``."""

from __future__ import annotations

from tests.factories.text_exports import NpuModuleMemFactory
from warehouse.ingest import ingest_file
from warehouse.sources import memory_record_csv, npu_module_mem


def test_values_and_units(warehouse_db, tmp_path):
    path = tmp_path / "test_rank_5" / "ASCEND_PROFILER_OUTPUT" / "npu_module_mem.csv"
    NpuModuleMemFactory(path=path)
    assert npu_module_mem.detect(path) and not memory_record_csv.detect(path)
    result = ingest_file(warehouse_db, path)
    assert (result.status, result.kind, result.rows) == ("ok", "npu_module_mem_csv", 2)
    assert warehouse_db.execute(
        "SELECT source_row, rank_id, device_id, component, ts, total_reserved_bytes FROM npu_module_mem "
        "ORDER BY source_row").fetchall() == [
        (1, 5, 0, "SLOG", 1736408883657086220, 0),
        (2, 5, 0, "APP", 1736408883677036730, 2212077568),
    ]
