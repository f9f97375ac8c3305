"""operator_memory.csv: memory held by each operator, into the rank db's ``op_memory``.

The CSV has exactly the fields of the rank db's OP_MEMORY (KiB / MiB / us here, bytes and
ns there), so its rows share that table; ``source.kind`` tells the two apart.
"""

from __future__ import annotations

from warehouse.sources.kit.csv_bulk import csv_source
from warehouse.sources.kit.text import (
    Column,
    CsvTable,
    device_id,
    integer,
    kib_to_bytes,
    mib_to_bytes,
    us_to_ns,
)

KIND = "operator_memory_csv"
SPEC = CsvTable(
    table="op_memory",
    required=frozenset({"Name", "Size(KB)", "Allocation Time(us)", "Release Time(us)"}),
    columns=(
        Column("name", ("Name",)),
        Column("size_bytes", ("Size(KB)",), kib_to_bytes),
        Column("allocation_ts", ("Allocation Time(us)",), us_to_ns),
        Column("release_ts", ("Release Time(us)",), us_to_ns),
        Column("active_release_ts", ("Active Release Time(us)",), us_to_ns),
        Column("dur", ("Duration(us)",), us_to_ns),
        Column("active_dur", ("Active Duration(us)",), us_to_ns),
        Column("allocation_total_allocated_bytes", ("Allocation Total Allocated(MB)",), mib_to_bytes),
        Column("allocation_total_reserved_bytes", ("Allocation Total Reserved(MB)",), mib_to_bytes),
        Column("allocation_total_active_bytes", ("Allocation Total Active(MB)",), mib_to_bytes),
        Column("release_total_allocated_bytes", ("Release Total Allocated(MB)",), mib_to_bytes),
        Column("release_total_reserved_bytes", ("Release Total Reserved(MB)",), mib_to_bytes),
        Column("release_total_active_bytes", ("Release Total Active(MB)",), mib_to_bytes),
        Column("stream_ptr", ("Stream Ptr",), integer),
        Column("device_id", ("Device Type",), device_id),
    ),
)
detect, ingest = csv_source(SPEC)
