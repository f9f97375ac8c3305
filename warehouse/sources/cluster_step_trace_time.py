"""cluster_step_trace_time.csv: the cluster analysis' step time per rank and per stage.

Same columns as step_trace_time.csv plus ``Type`` (rank or stage) and ``Index``; rows go
to ``step_trace_time`` with ``rank_id`` = Index for the rank rows (a stage's Index is its ranks, '(0, 1, ...)').
"""

from __future__ import annotations

from warehouse.sources.kit.step_trace import REQUIRED, TIME_COLUMNS
from warehouse.sources.kit.csv_bulk import csv_source
from warehouse.sources.kit.text import Column, CsvTable, text

KIND = "cluster_step_trace_time_csv"
SPEC = CsvTable(
    table="step_trace_time",
    required=REQUIRED | {"Type", "Index"},
    columns=(*TIME_COLUMNS, Column("scope", ("Type",), text), Column("scope_key", ("Index",), text)),
    cluster=True,
    finish=(
        "UPDATE step_trace_time SET rank_id = CASE WHEN scope = 'rank' THEN CAST(scope_key AS INTEGER) ELSE -1 END "
        "WHERE source_id = :source_id"
    ),
)
detect, ingest = csv_source(SPEC)
