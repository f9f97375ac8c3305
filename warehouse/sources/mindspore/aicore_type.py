"""aicore_intermediate_{device}_type.csv: MindSpore's AI Core time per operator type of one device.

MindSpore's operator time parser writes, per operator type, ``kernel_type``, ``total_time`` (ms),
``execution_frequency`` and ``percent`` (its share of all AI Core time): the profiler's own
summary of the device's AI Core operators, as op_statistic.csv is torch_npu's, so it goes to
``op_statistic`` (core type AI_CORE: the file holds AI Core operators only). The device is the
number in the file name.
"""

from __future__ import annotations

import re

from warehouse.sources.kit.text import Column, CsvTable, integer, ms_to_ns, real
from warehouse.sources.mindspore.device import device_csv_source

KIND = "mindspore_aicore_type_csv"
NAME = re.compile(r"aicore_intermediate_(\d{1,9})_type\.csv")
SPEC = CsvTable(
    table="op_statistic",
    required=frozenset({"kernel_type", "total_time", "execution_frequency", "percent"}),
    columns=(
        Column("op_type", ("kernel_type",)),
        Column("count", ("execution_frequency",), integer),
        Column("total_ns", ("total_time",), ms_to_ns),
        Column("ratio_pct", ("percent",), real),
    ),
    finish="UPDATE op_statistic SET core_type = 'AI_CORE' WHERE source_id = :source_id",
)

detect, ingest = device_csv_source(SPEC, NAME)
