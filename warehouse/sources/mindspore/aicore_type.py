"""aicore_intermediate_{device}_type.csv: MindSpore's AI Core time per operator type of one device.

MindSpore's operator time parser writes, per operator type, ``kernel_type``, ``total_time`` (ms),
``execution_frequency`` and ``percent`` (its share of all AI Core time): the profiler's own
summary of the device's AI Core operators, as op_statistic.csv is torch_npu's, so it goes to
``op_statistic`` (core type AI_CORE: the file holds AI Core operators only; fact aicore_type, before
the type section of output_op_compute_time_detail_{device}.txt). The device is the number in the
file name.

Its older version (MindInsight's run_2 resources; :data:`VERSIONS`) names the columns ``op_type``,
``execution_time``, ``execution_frequency``, ``percent`` and sums otherwise: MindInsight's integrator
wrote, per type, the number of its operators and the sum of their mean times (from
output_op_compute_time_{device}.txt), so one step's figures where each operator runs once a step;
its rows are marked ``per_step``.
"""

from __future__ import annotations

import re

from warehouse.sources.kit.text import Column, CsvTable, integer, ms_to_ns, real
from warehouse.sources.mindspore.device import device_csv_versions

KIND = "mindspore_aicore_type_csv"
NAME = re.compile(r"aicore_intermediate_(\d{1,9})_type\.csv")
#: each version's type and time headers, newest first, and what its rows are marked
HEADERS = (("kernel_type", "total_time", "core_type = 'AI_CORE'"),
           ("op_type", "execution_time", "core_type = 'AI_CORE', per_step = 1"))
VERSIONS = tuple(
    CsvTable(
        table="op_statistic",
        required=frozenset({op_type, time, "execution_frequency", "percent"}),
        columns=(
            Column("op_type", (op_type,)),
            Column("count", ("execution_frequency",), integer),
            Column("total_ns", (time,), ms_to_ns),
            Column("ratio_pct", ("percent",), real),
        ),
        finish=f"UPDATE op_statistic SET {marks} WHERE source_id = :source_id",
    )
    for op_type, time, marks in HEADERS
)

detect, ingest = device_csv_versions(VERSIONS, NAME)
