"""operator_memory.csv into the rank db's ``op_memory`` table (KiB / MiB -> bytes, us -> ns)."""

from __future__ import annotations

from tests.factories.text_exports import OperatorMemoryFactory
from warehouse.ingest import ingest_file


def test_values_and_units(warehouse_db, tmp_path):
    path = tmp_path / "operator_memory.csv"
    OperatorMemoryFactory(path=path)
    result = ingest_file(warehouse_db, path)
    assert (result.status, result.kind, result.rows) == ("ok", "operator_memory_csv", 2)
    assert warehouse_db.execute(
        "SELECT source_row, name, size_bytes, allocation_ts, release_ts, active_release_ts, dur, active_dur, "
        "allocation_total_allocated_bytes, allocation_total_reserved_bytes, release_total_active_bytes, "
        "stream_ptr, device_id FROM op_memory ORDER BY source_row"
    ).fetchall() == [
        (1, "aten::empty_strided", 19268096, 1736408883694624810, 1736408883701264010, 1736408883701264010,
         6639200, 6639200, 1000729600, 1522532352, 981462016, 897357296, 0),
        (2, "aten::empty", 512, 1736408883701264010, None, None, None, None, 1000730112, 1522532352, None,
         897357296, 0),
    ]
