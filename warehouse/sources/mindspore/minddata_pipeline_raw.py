"""minddata_pipeline_raw_{device}.csv: MindSpore's table of the data pipeline's operators and queues.

MindSpore's minddata pipeline parser (mindspore/profiler/parser/minddata_pipeline_parser.py) writes
it from ``pipeline_profiling_{device}.json``: per operator reachable from operator 0 that has an output
queue, its type, workers, the queue's sampled sizes (a JSON list), their mean, the queue's capacity,
mean over capacity (the usage rate MindInsight's pipeline page and proposer judge), the sampling
interval (ms), the operator it feeds and those feeding it (a JSON list). Stored as written in
``mindspore_minddata_op``; the raw JSON answers the same operators where both are present, and the
audit mindspore_minddata_agrees reconciles the two.
"""

from __future__ import annotations

import re

from warehouse.sources.kit.text import Column, CsvTable, integer, real
from warehouse.sources.mindspore.device import device_csv_source

KIND = "mindspore_minddata_pipeline_csv"
NAME = re.compile(r"minddata_pipeline_raw_(\d{1,9})\.csv")


def op_number(value) -> int:
    """An operator id (a whole number, never missing).

    :raises ValueError: otherwise.
    """
    number = integer(value)
    if number is None:
        raise ValueError("no operator id")
    return number


op_number.sql_type = "BIGINT"  # the bulk CSV reader's type for its values (kit.csv_bulk.sql_form)


SPEC = CsvTable(
    table="mindspore_minddata_op",
    required=frozenset({"op_id", "op_type", "output_queue_usage_rate", "children_id"}),
    columns=(
        Column("op_id", ("op_id",), op_number),
        Column("op_type", ("op_type",)),
        Column("num_workers", ("num_workers",), integer),
        Column("parent_op_id", ("parent_id",), integer),
        Column("children_ids", ("children_id",)),
        Column("queue_sizes", ("output_queue_size",)),
        Column("queue_average_size", ("output_queue_average_size",), real),
        Column("queue_length", ("output_queue_length",), integer),
        Column("queue_usage_rate", ("output_queue_usage_rate",), real),
        Column("sample_interval_ms", ("sample_interval",), integer),
    ),
)

detect, ingest = device_csv_source(SPEC, NAME)
