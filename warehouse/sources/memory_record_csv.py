"""memory_record.csv: device-memory totals over time per component, into the rank db's ``memory_record``.

The CSV has exactly the fields of the rank db's MEMORY_RECORD (sizes in MiB here, bytes
there), so its rows share that table; ``source.kind`` tells the two apart. ``component`` is
stored as the text both exports give (the db through STRING_IDS): PTA, GE, PTA+GE, and APP,
the whole process's reserved memory (no allocated or active column), which the db export keeps
in NPU_MEM (its app rows, copied as APP by the rank db source). The queries never mix components
(queries/memory).
"""

from __future__ import annotations

from warehouse.sources.kit.csv_bulk import csv_source
from warehouse.sources.kit.text import Column, CsvTable, device_id, integer, mib_to_bytes, us_to_ns

KIND = "memory_record_csv"
SPEC = CsvTable(
    table="memory_record",
    required=frozenset({"Component", "Timestamp(us)", "Total Reserved(MB)", "Device Type"}),
    columns=(
        Column("component", ("Component",)),
        Column("ts", ("Timestamp(us)",), us_to_ns),
        Column("total_allocated_bytes", ("Total Allocated(MB)",), mib_to_bytes),
        Column("total_reserved_bytes", ("Total Reserved(MB)",), mib_to_bytes),
        Column("total_active_bytes", ("Total Active(MB)",), mib_to_bytes),
        Column("stream_ptr", ("Stream Ptr",), integer),
        Column("device_id", ("Device Type",), device_id),
    ),
)
detect, ingest = csv_source(SPEC)
