"""op_statistic.csv: kernel time per operator type and core type (torch_npu text export)."""

from __future__ import annotations

from warehouse.sources.kit.csv_bulk import csv_source
from warehouse.sources.kit.text import Column, CsvTable, integer, real, us_to_ns

KIND = "op_statistic_csv"
SPEC = CsvTable(
    table="op_statistic",
    required=frozenset({"OP Type", "Core Type", "Count", "Total Time(us)"}),
    columns=(
        Column("op_type", ("OP Type",)),
        Column("core_type", ("Core Type",)),
        Column("count", ("Count",), integer),
        Column("total_ns", ("Total Time(us)",), us_to_ns),
        Column("min_ns", ("Min Time(us)",), us_to_ns),
        Column("avg_ns", ("Avg Time(us)",), us_to_ns),
        Column("max_ns", ("Max Time(us)",), us_to_ns),
        Column("ratio_pct", ("Ratio(%)",), real),
    ),
)
detect, ingest = csv_source(SPEC)
