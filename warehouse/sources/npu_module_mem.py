"""npu_module_mem.csv: memory reserved by each CANN module (SLOG, APP, HCCL, ...) over time."""

from __future__ import annotations

from warehouse.sources.kit.csv_bulk import csv_source
from warehouse.sources.kit.text import Column, CsvTable, device_id, mib_to_bytes, us_to_ns

KIND = "npu_module_mem_csv"
SPEC = CsvTable(
    table="npu_module_mem",
    required=frozenset({"Component", "Timestamp(us)", "Total Reserved(MB)", "Device"}),
    columns=(
        Column("component", ("Component",)),
        Column("ts", ("Timestamp(us)",), us_to_ns),
        Column("total_reserved_bytes", ("Total Reserved(MB)",), mib_to_bytes),
        Column("device_id", ("Device",), device_id),
    ),
)
detect, ingest = csv_source(SPEC)
