"""memory_record.csv into the rank db's ``memory_record`` table (MiB -> bytes)."""

from __future__ import annotations

from tests.factories.text_exports import MemoryRecordFactory
from warehouse.ingest import ingest_file


def test_values_units_and_devices(warehouse_db, tmp_path):
    path = tmp_path / "rank0_ascend_pt" / "ASCEND_PROFILER_OUTPUT" / "memory_record.csv"
    MemoryRecordFactory(path=path)
    result = ingest_file(warehouse_db, path)
    assert (result.status, result.kind, result.rows) == ("ok", "memory_record_csv", 2)
    assert warehouse_db.execute(
        "SELECT source_row, rank_id, device_id, component, ts, total_allocated_bytes, total_reserved_bytes, "
        "total_active_bytes, stream_ptr FROM memory_record ORDER BY source_row"
    ).fetchall() == [
        (1, 0, 0, "APP", 1736408883573957920, None, 2212077568, None, None),
        (2, 0, 3, "PTA", 1736408883694624810, 1000729600, 1522532352, 1000729600, 897357296),
    ]


def test_older_five_column_file(warehouse_db, tmp_path):
    path = tmp_path / "memory_record.csv"
    header = ("Component", "Timestamp(us)", "Total Allocated(MB)", "Total Reserved(MB)", "Device Type")
    MemoryRecordFactory(path=path, header=header, rows=[
        {"Component": "APP", "Timestamp(us)": "1695115378653323.5", "Total Allocated(MB)": "",
         "Total Reserved(MB)": "11224.375", "Device Type": "NPU:0"}])
    assert ingest_file(warehouse_db, path).rows == 1
    assert warehouse_db.execute("SELECT ts, total_reserved_bytes, total_active_bytes FROM memory_record").fetchall() == [
        (1695115378653323500, 11769610240, None)]
