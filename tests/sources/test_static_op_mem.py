"""static_op_mem.csv into ``static_op_memory``."""

from __future__ import annotations

from tests.factories.text_exports import StaticOpMemFactory
from warehouse.ingest import ingest_file


def test_values_and_units(warehouse_db, tmp_path):
    path = tmp_path / "static_op_mem.csv"
    StaticOpMemFactory(path=path)
    result = ingest_file(warehouse_db, path)
    assert (result.status, result.kind, result.rows) == ("ok", "static_op_mem_csv", 2)
    assert warehouse_db.execute(
        "SELECT source_row, device, device_id, op_name, model_name, graph_id, node_index_start, node_index_end, "
        "size_bytes FROM static_op_memory ORDER BY source_row").fetchall() == [
        (1, "host", None, "sqrt_01", "0", 0, 31, 32, 2400032),
        (2, "NPU:1", 1, "trans_TransData_0", "0", 7, 1, 6, 1280032),
    ]
