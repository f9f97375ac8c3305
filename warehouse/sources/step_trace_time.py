"""step_trace_time.csv: one rank's step time split into computing, communication, free, ...

All times are us in the file, ns in ``step_trace_time`` (the columns: :mod:`warehouse.sources.kit.step_trace`).
The cluster analysis writes the same columns for every rank and stage
(:mod:`warehouse.sources.cluster_step_trace_time`).
"""

from __future__ import annotations

from warehouse.sources.kit.step_trace import REQUIRED, TIME_COLUMNS
from warehouse.sources.kit.csv_bulk import csv_source
from warehouse.sources.kit.text import CsvTable

KIND = "step_trace_time_csv"
SPEC = CsvTable(
    table="step_trace_time",
    required=REQUIRED,
    excluded=frozenset({"Type", "Index"}),
    columns=TIME_COLUMNS,
    finish="UPDATE step_trace_time SET scope = 'rank', scope_key = rank_id WHERE source_id = :source_id",
)
detect, ingest = csv_source(SPEC)
