"""operator_details.csv: host and device time per framework operator, with its call stack."""

from __future__ import annotations

from warehouse.sources.kit.csv_bulk import csv_source
from warehouse.sources.kit.text import Column, CsvTable, us_to_ns

KIND = "operator_details_csv"
SPEC = CsvTable(
    table="operator_details",
    required=frozenset({"Name", "Host Self Duration(us)", "Device Self Duration(us)"}),
    columns=(
        Column("name", ("Name",)),
        Column("input_shapes", ("Input Shapes",)),
        Column("call_stack", ("Call Stack",)),
        Column("host_self_ns", ("Host Self Duration(us)",), us_to_ns),
        Column("host_total_ns", ("Host Total Duration(us)",), us_to_ns),
        Column("device_self_ns", ("Device Self Duration(us)",), us_to_ns),
        Column("device_total_ns", ("Device Total Duration(us)",), us_to_ns),
        Column("device_self_aicore_ns", ("Device Self Duration With AICore(us)",), us_to_ns),
        Column("device_total_aicore_ns", ("Device Total Duration With AICore(us)",), us_to_ns),
    ),
)
detect, ingest = csv_source(SPEC)
