"""static_op_mem.csv: memory of statically compiled graph operators (graph mode)."""

from __future__ import annotations

from warehouse.sources.kit.csv_bulk import csv_source
from warehouse.sources.kit.text import Column, CsvTable, device_id, integer, kib_to_bytes

KIND = "static_op_mem_csv"
SPEC = CsvTable(
    table="static_op_memory",
    required=frozenset({"Op Name", "Model Name", "Graph ID", "Size(KB)"}),
    columns=(
        Column("device", ("Device_id",)),
        Column("device_id", ("Device_id",), device_id),
        Column("op_name", ("Op Name",)),
        Column("model_name", ("Model Name",)),
        Column("graph_id", ("Graph ID",), integer),
        Column("node_index_start", ("Node Index Start",), integer),
        Column("node_index_end", ("Node Index End",), integer),
        Column("size_bytes", ("Size(KB)",), kib_to_bytes),
    ),
)
detect, ingest = csv_source(SPEC)
