"""api_statistic.csv: time per CANN API (acl, runtime, node, hccl levels)."""

from __future__ import annotations

from warehouse.sources.kit.csv_bulk import csv_source
from warehouse.sources.kit.text import Column, CsvTable, integer, us2_to_ns2, us_to_ns

KIND = "api_statistic_csv"

SPEC = CsvTable(
    table="api_statistic",
    required=frozenset({"Level", "API Name", "Time(us)", "Count"}),
    columns=(
        Column("level", ("Level",)),
        Column("api_name", ("API Name",)),
        Column("total_ns", ("Time(us)",), us_to_ns),
        Column("count", ("Count",), integer),
        Column("avg_ns", ("Avg(us)",), us_to_ns),
        Column("min_ns", ("Min(us)",), us_to_ns),
        Column("max_ns", ("Max(us)",), us_to_ns),
        Column("variance_ns2", ("Variance",), us2_to_ns2),
    ),
)
detect, ingest = csv_source(SPEC)
