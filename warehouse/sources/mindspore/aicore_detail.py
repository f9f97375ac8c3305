"""aicore_intermediate_{device}_detail.csv: MindSpore's AI Core time per operator of one device.

MindSpore's operator time parser writes, per operator, its full name with its scope
(``full_kernel_time``, sic), ``execution_time`` (ms) and ``execution_frequency``: the profiler's
own per-operator table, stored as written in ``mindspore_aicore_op``. The device is the number in
the file name.
"""

from __future__ import annotations

import re

from warehouse.sources.kit.text import Column, CsvTable, integer, ms_to_ns
from warehouse.sources.mindspore.device import device_csv_source

KIND = "mindspore_aicore_detail_csv"
NAME = re.compile(r"aicore_intermediate_(\d{1,9})_detail\.csv")
SPEC = CsvTable(
    table="mindspore_aicore_op",
    required=frozenset({"full_kernel_time", "execution_time", "execution_frequency"}),
    columns=(
        Column("full_name", ("full_kernel_time",)),
        Column("time_ns", ("execution_time",), ms_to_ns),
        Column("count", ("execution_frequency",), integer),
    ),
)

detect, ingest = device_csv_source(SPEC, NAME)
