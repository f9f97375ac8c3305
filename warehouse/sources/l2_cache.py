"""l2_cache.csv: L2 cache hit and victim rates per kernel task (collected with l2_cache=True)."""

from __future__ import annotations

from warehouse.sources.kit.csv_bulk import csv_source
from warehouse.sources.kit.text import Column, CsvTable, integer, real

KIND = "l2_cache_csv"
SPEC = CsvTable(
    table="kernel_l2_cache",
    required=frozenset({"Stream Id", "Task Id", "Hit Rate", "Op Name"}),
    columns=(
        Column("stream_id", ("Stream Id",), integer),
        Column("task_id", ("Task Id",), integer),
        Column("hit_rate", ("Hit Rate",), real),
        Column("victim_rate", ("Victim Rate",), real),
        Column("op_name", ("Op Name",)),
    ),
)
detect, ingest = csv_source(SPEC)
